// Embeds libtorch's directory as an rpath so binaries and tests run without
// LD_LIBRARY_PATH, and compiles csrc/train_state.cpp, which reaches the
// AdamW and generator state that tch does not expose (for `--resume`).
use std::path::PathBuf;

fn main() {
    println!("cargo:rerun-if-env-changed=LIBTORCH");
    println!("cargo:rerun-if-env-changed=LIBTORCH_CXX11_ABI");
    println!("cargo:rerun-if-changed=csrc/train_state.cpp");
    // The libtorch torch-sys links (its `links = "tch"` metadata), however
    // it found it: $LIBTORCH, or Python's torch with LIBTORCH_USE_PYTORCH.
    let lib = match (std::env::var("DEP_TCH_LIBTORCH_LIB"), std::env::var("LIBTORCH")) {
        (Ok(lib), _) => PathBuf::from(lib),
        (Err(_), Ok(dir)) => PathBuf::from(dir).join("lib"),
        _ => panic!("no libtorch: run `source .ci/env` (it installs libtorch and exports LIBTORCH)"),
    };
    println!("cargo:rustc-link-arg=-Wl,-rpath,{}", lib.display());
    let root = lib.parent().expect("libtorch's lib directory has a parent");
    // torch-sys's default for a libtorch directory.
    let abi = std::env::var("LIBTORCH_CXX11_ABI").unwrap_or_else(|_| "1".to_owned());
    cc::Build::new()
        .cpp(true)
        .file("csrc/train_state.cpp")
        .include(root.join("include"))
        .include(root.join("include/torch/csrc/api/include"))
        .flag("-std=c++17")
        .flag(format!("-D_GLIBCXX_USE_CXX11_ABI={abi}"))
        .flag("-DGLOG_USE_GLOG_EXPORT")
        .warnings(false)
        .compile("lexlog_train_state");
}
