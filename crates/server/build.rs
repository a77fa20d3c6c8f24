//! Rebuilds the server when the web client changes: `rust-embed` embeds `web/` at compile time in
//! release builds, and a file added to `web/` must be picked up too.

fn main() {
    println!("cargo:rerun-if-changed=../../web");
    println!("cargo:rerun-if-changed=migrations");
}
