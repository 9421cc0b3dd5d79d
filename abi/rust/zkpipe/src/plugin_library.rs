//! Opening a plugin library the way the host does: by short name on the host's search
//! path ($ZKPIPE_PLUGIN_PATH, then libzkpipe's folder and its ../lib/zkpipe and ../lib),
//! or by path. Only what [`Verifier`](crate::Verifier) needs: dlopen and one symbol.
use crate::error::{Error, Result, Status};
use std::ffi::{c_char, c_int, c_void, CStr, CString, OsStr};
use std::os::unix::ffi::OsStrExt;
use std::path::{Path, PathBuf};
use zkpipe_sys as sys;

// glibc's dl* functions (libc itself since glibc 2.34; libdl before).
#[repr(C)]
struct DlInfo {
    dli_fname: *const c_char,
    dli_fbase: *mut c_void,
    dli_sname: *const c_char,
    dli_saddr: *mut c_void,
}
const RTLD_NOW: c_int = 2;
extern "C" {
    fn dlopen(filename: *const c_char, flags: c_int) -> *mut c_void;
    fn dlsym(handle: *mut c_void, symbol: *const c_char) -> *mut c_void;
    fn dlclose(handle: *mut c_void) -> c_int;
    fn dlerror() -> *const c_char;
    fn dladdr(addr: *const c_void, info: *mut DlInfo) -> c_int;
}

pub(crate) struct Library {
    handle: *mut c_void,
    pub entry: &'static sys::zkp_plugin_entry_t,
}

impl Library {
    /// Opens `libzkp_<kind>_<name>.so` from the search path, or `name` itself if it is a path.
    pub fn open(kind: &str, name: &str) -> Result<Library> {
        let path = resolve(kind, name)?;
        let c = CString::new(path.as_os_str().as_bytes()).map_err(|_| Error::InvalidArgument("a NUL in the plugin path".into()))?;
        let handle = unsafe { dlopen(c.as_ptr(), RTLD_NOW) };
        if handle.is_null() {
            return Err(Error::host(Status::NotFound, format!("{}: {}", path.display(), last_dl_error())));
        }
        let entry = unsafe { dlsym(handle, sys::ZKP_PLUGIN_ENTRY_SYMBOL.as_ptr()).cast::<sys::zkp_plugin_entry_t>() };
        if entry.is_null() {
            unsafe { dlclose(handle) };
            return Err(Error::host(Status::NotFound, format!("{} exports no zkp_plugin_entry", path.display())));
        }
        // SAFETY: the entry is static data of the library, which stays open while `self` lives;
        // 'static is narrowed by keeping `entry` private to this crate's users of Library.
        Ok(Library { handle, entry: unsafe { &*entry } })
    }
}

impl Drop for Library {
    fn drop(&mut self) {
        unsafe { dlclose(self.handle) };
    }
}

fn last_dl_error() -> String {
    let e = unsafe { dlerror() };
    if e.is_null() { "unknown dlopen error".into() } else { unsafe { CStr::from_ptr(e) }.to_string_lossy().into_owned() }
}

/// The folder of the libzkpipe this process linked, found through one of its symbols.
fn libzkpipe_folder() -> Option<PathBuf> {
    let mut info = DlInfo { dli_fname: std::ptr::null(), dli_fbase: std::ptr::null_mut(), dli_sname: std::ptr::null(), dli_saddr: std::ptr::null_mut() };
    let addr = sys::zkp_host_abi_version as *const c_void;
    if unsafe { dladdr(addr, &mut info) } == 0 || info.dli_fname.is_null() {
        return None;
    }
    let file = Path::new(OsStr::from_bytes(unsafe { CStr::from_ptr(info.dli_fname) }.to_bytes()));
    std::fs::canonicalize(file).ok()?.parent().map(Path::to_path_buf)
}

fn resolve(kind: &str, name: &str) -> Result<PathBuf> {
    if name.contains('/') || name.ends_with(".so") {
        return Ok(PathBuf::from(name));
    }
    let file = format!("libzkp_{kind}_{name}.so");
    let mut folders: Vec<PathBuf> = std::env::var_os("ZKPIPE_PLUGIN_PATH")
        .map(|p| std::env::split_paths(&p).filter(|f| !f.as_os_str().is_empty()).collect())
        .unwrap_or_default();
    if let Some(own) = libzkpipe_folder() {
        folders.extend([own.clone(), own.join("../lib/zkpipe"), own.join("../lib")]);
    }
    folders
        .iter()
        .map(|f| f.join(&file))
        .find(|p| p.exists())
        .ok_or_else(|| Error::host(Status::NotFound, format!("{kind} plugin {name:?}: no {file} in {folders:?} (set ZKPIPE_PLUGIN_PATH)")))
}
