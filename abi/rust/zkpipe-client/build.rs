//! Finds libzkpipe_client: ZKPIPE_LIB_DIR (a build's lib/, which holds libzkpipe.so and
//! libzkpipe_client.so side by side) if set, else `pkg-config zkpipe-client` (an installed
//! zkpipe-client.pc). The rpath lets programs linked this way run without LD_LIBRARY_PATH.
use std::env;
use std::process::Command;

fn main() {
    println!("cargo:rerun-if-env-changed=ZKPIPE_LIB_DIR");
    println!("cargo:rerun-if-env-changed=PKG_CONFIG_PATH");
    let dir = match env::var("ZKPIPE_LIB_DIR") {
        Ok(dir) if !dir.is_empty() => dir,
        _ => pkg_config_libdir().unwrap_or_else(|why| {
            panic!("zkpipe-client: set ZKPIPE_LIB_DIR to the folder holding libzkpipe_client.so, or install zkpipe-client.pc for pkg-config ({why})")
        }),
    };
    println!("cargo:rustc-link-search=native={dir}");
    println!("cargo:rustc-link-lib=dylib=zkpipe_client");
    println!("cargo:rustc-link-arg=-Wl,-rpath,{dir}");
    println!("cargo:lib_dir={dir}");
}

fn pkg_config_libdir() -> Result<String, String> {
    let out = Command::new(env::var("PKG_CONFIG").unwrap_or_else(|_| "pkg-config".into()))
        .args(["--variable=libdir", "zkpipe-client"])
        .output()
        .map_err(|e| format!("cannot run pkg-config: {e}"))?;
    if !out.status.success() {
        return Err(format!("pkg-config zkpipe-client: {}", String::from_utf8_lossy(&out.stderr).trim()));
    }
    let dir = String::from_utf8_lossy(&out.stdout).trim().to_string();
    if dir.is_empty() {
        return Err("pkg-config zkpipe-client has no libdir".into());
    }
    Ok(dir)
}
