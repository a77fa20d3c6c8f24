//! CPU players for both games (issue 5). Work in progress.
#![forbid(unsafe_code)]
