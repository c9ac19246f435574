// Embeds libtorch's directory as an rpath so binaries and tests run without
// LD_LIBRARY_PATH, and compiles csrc/train_state.cpp, which reaches the
// AdamW and generator state that tch does not expose (for `--resume`).
fn main() {
    println!("cargo:rerun-if-env-changed=LIBTORCH");
    println!("cargo:rerun-if-env-changed=LIBTORCH_CXX11_ABI");
    println!("cargo:rerun-if-changed=csrc/train_state.cpp");
    let Ok(dir) = std::env::var("LIBTORCH") else {
        panic!("LIBTORCH is not set: run `source .ci/env` (it installs libtorch and exports LIBTORCH)");
    };
    println!("cargo:rustc-link-arg=-Wl,-rpath,{dir}/lib");
    // torch-sys's default for a libtorch directory.
    let abi = std::env::var("LIBTORCH_CXX11_ABI").unwrap_or_else(|_| "1".to_owned());
    cc::Build::new()
        .cpp(true)
        .file("csrc/train_state.cpp")
        .include(format!("{dir}/include"))
        .include(format!("{dir}/include/torch/csrc/api/include"))
        .flag("-std=c++17")
        .flag(format!("-D_GLIBCXX_USE_CXX11_ABI={abi}"))
        .warnings(false)
        .compile("lexlog_train_state");
}
