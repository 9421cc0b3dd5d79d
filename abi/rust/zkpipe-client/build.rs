//! Finds libzkpipe_client: ZKPIPE_LIB_DIR (a build's lib/, which holds libzkpipe.so and
//! libzkpipe_client.so side by side) if set, else `pkg-config zkpipe-client` (an installed
//! zkpipe-client.pc), and links it so that programs depending on this crate run without
//! LD_LIBRARY_PATH when it is installed (../linking/link.rs says how).
#[path = "../linking/link.rs"]
mod link;

fn main() {
    let dir = link::find_and_link("zkpipe_client", "zkpipe-client");
    println!("cargo:lib_dir={dir}");
}
