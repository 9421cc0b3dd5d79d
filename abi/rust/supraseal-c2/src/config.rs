//! Which zkpipe host every SRS runs on: decided once per process, from the INI file that
//! `ZKPIPE_SUPRASEAL_CONFIG` names (zkpipe's host configuration: prover, devices, pacer,
//! budget, threads, ...). A file that sets `prover` gets that prover. Otherwise the crate
//! wants every GPU (`prover = cuda`) and falls back to the `cpu` prover where the cuda plugin
//! is missing or sees no GPU, saying so once on stderr.
use crate::cuda;
use crate::srs_file::{EINVAL, EIO};
use std::path::{Path, PathBuf};
use std::sync::OnceLock;
use zkpipe::{Host, HostBuilder};

/// The environment variable naming the zkpipe INI file (`zkpipe --help` lists its keys).
pub const CONFIG_ENV: &str = "ZKPIPE_SUPRASEAL_CONFIG";

pub(crate) struct HostConfig {
    pub(crate) builder: HostBuilder,
    pub(crate) prover: String,
}

static CHOSEN: OnceLock<Result<HostConfig, (i32, String)>> = OnceLock::new();

/// The configuration, chosen on first use.
pub(crate) fn host_config() -> Result<&'static HostConfig, cuda::Error> {
    CHOSEN.get_or_init(choose).as_ref().map_err(|(code, message)| cuda::Error::new(*code, message.clone()))
}

/// The top-level `prover = ...` of an INI file as zkpipe reads it ('#' starts a comment,
/// `[section]` prefixes the keys after it; the last setting wins).
pub(crate) fn prover_in(text: &str) -> Option<String> {
    let mut in_section = false;
    let mut prover = None;
    for raw in text.lines() {
        let line = raw.split('#').next().unwrap_or("").trim();
        if line.starts_with('[') && line.ends_with(']') {
            in_section = true;
        } else if let Some((key, value)) = line.split_once('=') {
            if !in_section && key.trim() == "prover" {
                prover = Some(value.trim().to_string());
            }
        }
    }
    prover
}

fn read_config(path: &Path) -> Result<String, (i32, String)> {
    std::fs::read_to_string(path).map_err(|e| (e.raw_os_error().unwrap_or(EIO), format!("{CONFIG_ENV}={}: {e}", path.display())))
}

fn choose() -> Result<HostConfig, (i32, String)> {
    let file = std::env::var_os(CONFIG_ENV).filter(|v| !v.is_empty()).map(PathBuf::from);
    let base = match &file {
        Some(path) => Host::builder().config(path),
        None => Host::builder(),
    };
    if let Some(path) = &file {
        if let Some(prover) = prover_in(&read_config(path)?) {
            if prover.is_empty() {
                return Err((EINVAL, format!("{CONFIG_ENV}={}: prover is empty", path.display())));
            }
            return Ok(HostConfig { builder: base, prover });
        }
    }
    let cuda = base.clone().set("prover", "cuda");
    let why = match cuda.clone().build() {
        Ok(host) => match host.stats() {
            Ok(stats) if stats.device_count > 0 => return Ok(HostConfig { builder: cuda, prover: "cuda".into() }),
            Ok(_) => "it sees no GPU".to_string(),
            Err(e) => e.to_string(),
        },
        Err(e) => e.to_string(),
    };
    eprintln!("supraseal-c2 (zkpipe): the \"cuda\" prover is not available ({why}); proving on the \"cpu\" prover");
    Ok(HostConfig { builder: base.set("prover", "cpu"), prover: "cpu".into() })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_a_top_level_prover_names_the_prover() {
        assert_eq!(prover_in("prover = cuda\n"), Some("cuda".into()));
        assert_eq!(prover_in("budget = 64GiB\n[prover]\nprover = x\ndevices = 0\n"), None);
        assert_eq!(prover_in("# prover = cuda\nworkers_per_device=1 # prover = sim\n"), None);
        assert_eq!(prover_in("prover=cpu\nprover = sim # the last wins\n[pacer]\nx = 1\n[]\nprover = cuda\n"), Some("sim".into()));
    }
}
