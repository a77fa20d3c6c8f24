//! Rules of Chinese checkers (RULES.md part 1). Work in progress.
#![forbid(unsafe_code)]
