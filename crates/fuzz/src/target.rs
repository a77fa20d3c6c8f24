//! What the fuzzer feeds: one kind of input and the code it reaches.

use crate::mutate::Rng;

/// One kind of input.
pub trait Target {
    /// Its name in reports.
    fn name(&self) -> &'static str;
    /// Generates one input and feeds it to the server's code.
    fn one(&mut self, rng: &mut Rng);
    /// The last input, described, for a report.
    fn last_input(&self) -> String;
    /// Answers that were not typed errors, and the first of them.
    fn failures(&self) -> (u64, Option<String>) {
        (0, None)
    }
    /// How deep the inputs went, in words (e.g. the moves they played), for the report.
    fn depth(&self) -> String {
        String::new()
    }
}
