//! The Dames game server (issue 4). Work in progress.
#![forbid(unsafe_code)]
