// Embeds libtorch's directory as an rpath so binaries and tests run without
// LD_LIBRARY_PATH, and a hash of the sources a decoded beam depends on.
use std::path::{Path, PathBuf};

/// The workspace's folders whose code decodes, completes, checks or names
/// a beam (and so `lexlog eval`'s beam caches).
const BEAM_SOURCES: &[&str] = &["parser/src", "data/src", "solver/src", "solver/rules", "bridge/src", "experiments/src"];

/// Every file under `dir`, at any depth.
fn files(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else { return };
    for path in entries.flatten().map(|e| e.path()) {
        if path.is_dir() {
            files(&path, out);
        } else {
            out.push(path);
        }
    }
}

fn main() {
    println!("cargo:rerun-if-env-changed=LIBTORCH");
    if let Ok(dir) = std::env::var("LIBTORCH") {
        println!("cargo:rustc-link-arg=-Wl,-rpath,{dir}/lib");
    }
    // FNV-1a over each file's path (from the workspace root) and bytes, in
    // path order: a beam cache written by other code is never read back,
    // whether or not a hand-kept version was raised.
    let root = PathBuf::from(std::env::var("CARGO_MANIFEST_DIR").expect("cargo sets it")).join("..");
    let mut all = Vec::new();
    for dir in BEAM_SOURCES {
        println!("cargo:rerun-if-changed=../{dir}");
        files(&root.join(dir), &mut all);
    }
    all.sort();
    let mut hash: u64 = 0xcbf2_9ce4_8422_2325;
    for path in &all {
        let name = path.strip_prefix(&root).unwrap_or(path).to_string_lossy().into_owned();
        let bytes = std::fs::read(path).unwrap_or_default();
        for b in name.bytes().chain([0]).chain(bytes) {
            hash = (hash ^ b as u64).wrapping_mul(0x100_0000_01b3);
        }
    }
    println!("cargo:rustc-env=LEXLOG_BEAM_SOURCES={hash:016x}");
}
