//! Rules of international draughts (RULES.md part 2). Work in progress.
#![forbid(unsafe_code)]
