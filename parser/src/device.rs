//! Device selection: CUDA when libtorch's CUDA libraries are present, else CPU.

use tch::Device;

/// Loads `libtorch_cuda.so` if it can be found, so that one binary uses the
/// GPU where its libraries exist. rustc links with `--as-needed` and drops
/// the library otherwise. Call before any other tch call; failure is fine.
pub fn load_cuda() {
    for name in [c"libtorch_cuda.so", c"libtorch_cuda.so.1"] {
        // SAFETY: dlopen with a valid C string; the handle is leaked on
        // purpose so the library stays loaded for the process's lifetime.
        let handle = unsafe { libc_dlopen(name.as_ptr(), RTLD_NOW | RTLD_GLOBAL) };
        if !handle.is_null() {
            return;
        }
    }
}

const RTLD_NOW: i32 = 2;
const RTLD_GLOBAL: i32 = 0x100;

extern "C" {
    #[link_name = "dlopen"]
    fn libc_dlopen(filename: *const std::ffi::c_char, flag: i32) -> *mut std::ffi::c_void;
}

/// CUDA device 0 if available, else the CPU.
pub fn best_device() -> Device {
    Device::cuda_if_available()
}

/// One line on what libtorch sees: the device training would use, the CUDA
/// device count and whether cuDNN is there.
pub fn describe() -> String {
    format!(
        "device {:?}; CUDA devices {}; cuDNN {}",
        best_device(),
        tch::Cuda::device_count(),
        if tch::Cuda::cudnn_is_available() { "available" } else { "absent" }
    )
}

#[cfg(test)]
mod tests {
    #[test]
    fn describe_names_the_chosen_device() {
        let line = super::describe();
        assert!(line.starts_with(&format!("device {:?};", super::best_device())), "{line}");
    }

    #[test]
    fn cpu_tensors_work() {
        let t = tch::Tensor::from_slice(&[1.0f32, 2.0, 3.0]);
        assert_eq!(t.sum(tch::Kind::Float).double_value(&[]), 6.0);
    }
}
