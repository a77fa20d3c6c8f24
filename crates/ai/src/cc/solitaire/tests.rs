use super::*;

#[test]
fn the_start_needs_at_least_the_rows_bound() {
    let solver = Solver::with_table_bits(10);
    let bound = solver.lower_bound(Solitaire::start());
    eprintln!("rows bound of the start: {bound}");
    assert!(bound > 10 && bound <= 27);
    assert_eq!(solver.lower_bound(Solitaire::goal()), 0);
}
