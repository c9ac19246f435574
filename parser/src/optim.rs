//! AdamW as `tch::nn::AdamW` builds it (libtorch's `torch::optim::AdamW`,
//! so the same steps to the bit), with what tch keeps out of reach made
//! readable and restorable: the optimizer's step counts and moments, and
//! the default generators that draw dropout (`csrc/train_state.cpp`). A run
//! resumed from them continues an unbroken one exactly.

use crate::error::ParserError;
use std::ffi::{c_char, c_int, CStr};
use std::sync::{Arc, Mutex};
use tch::nn::{VarStore, Variables};
use tch::{Device, Tensor};
use torch_sys::{C_optimizer, C_tensor};

extern "C" {
    fn lexlog_adamw_state(opt: *mut C_optimizer, group: usize, index: usize, step: *mut i64, exp_avg: *mut *mut C_tensor, exp_avg_sq: *mut *mut C_tensor, err: *mut c_char, err_len: usize) -> c_int;
    fn lexlog_adamw_set_state(opt: *mut C_optimizer, group: usize, index: usize, step: i64, exp_avg: *const C_tensor, exp_avg_sq: *const C_tensor, err: *mut c_char, err_len: usize) -> c_int;
    fn lexlog_generator_state(cuda: c_int, state: *mut *mut C_tensor, err: *mut c_char, err_len: usize) -> c_int;
    fn lexlog_set_generator_state(cuda: c_int, state: *const C_tensor, err: *mut c_char, err_len: usize) -> c_int;
}

/// Runs one of the shim's calls, turning its message into an error.
fn shim(what: &str, call: impl FnOnce(*mut c_char, usize) -> c_int) -> Result<(), ParserError> {
    let mut err = [0 as c_char; 512];
    match call(err.as_mut_ptr(), err.len()) {
        0 => Ok(()),
        _ => {
            let message = unsafe { CStr::from_ptr(err.as_ptr()) }.to_string_lossy().into_owned();
            Err(ParserError::Config(format!("{what}: {message}")))
        }
    }
}

/// The error libtorch left from the last `ato_*` call, if any.
fn torch_error(what: &str) -> Result<(), ParserError> {
    let err = unsafe { torch_sys::get_and_reset_last_err() };
    if err.is_null() {
        return Ok(());
    }
    let message = unsafe { CStr::from_ptr(err) }.to_string_lossy().into_owned();
    unsafe { libc::free(err as *mut libc::c_void) };
    Err(ParserError::Config(format!("{what}: {message}")))
}

/// libtorch's AdamW over a var store's trainable variables, their groups
/// as the store sets them.
pub struct AdamW {
    opt: *mut C_optimizer,
    variables: Arc<Mutex<Variables>>,
    /// Each trainable variable's (group, index within the group), in the
    /// store's order.
    slots: Vec<(usize, usize)>,
}

// The optimizer is used by one thread at a time, as tch's own.
unsafe impl Send for AdamW {}

impl AdamW {
    /// tch's `nn::AdamW { wd, ..Default::default() }.build(vs, lr)`.
    pub fn new(vs: &VarStore, lr: f64, wd: f64) -> Result<AdamW, ParserError> {
        let opt = unsafe { torch_sys::ato_adamw(lr, 0.9, 0.999, wd, 1e-8, false) };
        torch_error("building AdamW")?;
        let mut adamw = AdamW { opt, variables: vs.variables_.clone(), slots: Vec::new() };
        adamw.add_missing_variables()?;
        Ok(adamw)
    }

    fn add_missing_variables(&mut self) -> Result<(), ParserError> {
        let v = self.variables.lock().unwrap();
        for var in &v.trainable_variables[self.slots.len()..] {
            unsafe { torch_sys::ato_add_parameters(self.opt, var.tensor.as_ptr() as *mut C_tensor, var.group) };
            torch_error("adding a parameter to AdamW")?;
            let index = self.slots.iter().filter(|(g, _)| *g == var.group).count();
            self.slots.push((var.group, index));
        }
        Ok(())
    }

    pub fn set_lr_group(&mut self, group: usize, lr: f64) -> Result<(), ParserError> {
        unsafe { torch_sys::ato_set_learning_rate_group(self.opt, group, lr) };
        torch_error("setting AdamW's learning rate")
    }

    /// Zeroes the gradients, back-propagates `loss`, scales the gradients
    /// to a total norm of at most `max`, and steps (tch's
    /// `backward_step_clip_norm`, operation for operation).
    pub fn backward_step_clip_norm(&mut self, loss: &Tensor, max: f64) -> Result<(), ParserError> {
        self.add_missing_variables()?;
        unsafe { torch_sys::ato_zero_grad(self.opt) };
        torch_error("zeroing gradients")?;
        loss.backward();
        self.clip_grad_norm(max);
        unsafe { torch_sys::ato_step(self.opt) };
        torch_error("stepping AdamW")
    }

    fn clip_grad_norm(&self, max: f64) {
        tch::no_grad(|| {
            let v = self.variables.lock().unwrap();
            let grads: Vec<Tensor> = v.trainable_variables.iter().map(|var| var.tensor.grad()).filter(|g| g.defined()).collect();
            let norms: Vec<Tensor> = grads.iter().map(|g| g.norm()).collect();
            let total_norm = f64::try_from(Tensor::stack(&norms, 0).norm()).unwrap_or(f64::NAN);
            let clip_coef = max / (total_norm + 1e-6);
            if clip_coef < 1.0 {
                for mut g in grads {
                    let _ = g.g_mul_scalar_(clip_coef);
                }
            }
        })
    }

    /// The step count and moments of every variable stepped so far, on the
    /// CPU, named `adamw.<i>.{step,exp_avg,exp_avg_sq}` by the variable's
    /// place among the trainable ones.
    pub fn state(&self) -> Result<Vec<(String, Tensor)>, ParserError> {
        let mut out = Vec::new();
        for (i, &(group, index)) in self.slots.iter().enumerate() {
            let (mut step, mut m, mut v) = (0i64, std::ptr::null_mut(), std::ptr::null_mut());
            shim("reading AdamW's state", |err, len| unsafe { lexlog_adamw_state(self.opt, group, index, &mut step, &mut m, &mut v, err, len) })?;
            if step < 0 {
                continue;
            }
            let (m, v) = unsafe { (Tensor::from_ptr(m), Tensor::from_ptr(v)) };
            out.push((format!("adamw.{i}.step"), Tensor::from(step)));
            out.push((format!("adamw.{i}.exp_avg"), m.to_device(Device::Cpu)));
            out.push((format!("adamw.{i}.exp_avg_sq"), v.to_device(Device::Cpu)));
        }
        Ok(out)
    }

    /// Restores what [`AdamW::state`] read; `find` looks a name up.
    pub fn restore(&mut self, find: impl Fn(&str) -> Option<Tensor>) -> Result<(), ParserError> {
        self.add_missing_variables()?;
        for (i, &(group, index)) in self.slots.iter().enumerate() {
            let Some(step) = find(&format!("adamw.{i}.step")) else { continue };
            let moment = |name: &str| find(&format!("adamw.{i}.{name}")).ok_or_else(|| ParserError::Config(format!("AdamW's saved state has the step of variable {i} but not its {name}")));
            let (m, v) = (moment("exp_avg")?, moment("exp_avg_sq")?);
            let step = step.int64_value(&[]);
            shim("restoring AdamW's state", |err, len| unsafe { lexlog_adamw_set_state(self.opt, group, index, step, m.as_ptr(), v.as_ptr(), err, len) })?;
        }
        Ok(())
    }
}

impl Drop for AdamW {
    fn drop(&mut self) {
        unsafe { torch_sys::ato_free(self.opt) };
    }
}

/// The default generators that draw on `device`, by their saved name, with
/// the shim's flag for CUDA: the CPU's, and CUDA's when training there.
fn generators(device: Device) -> impl Iterator<Item = (&'static str, c_int)> {
    [("generator.cpu", 0), ("generator.cuda", 1)].into_iter().filter(move |&(_, cuda)| cuda == 0 || device.is_cuda())
}

/// The default generators' states (the CPU's, and CUDA's when training
/// there), named `generator.cpu` and `generator.cuda`.
pub fn generator_state(device: Device) -> Result<Vec<(String, Tensor)>, ParserError> {
    let mut out = Vec::new();
    for (name, cuda) in generators(device) {
        let mut state = std::ptr::null_mut();
        shim("reading the random generator's state", |err, len| unsafe { lexlog_generator_state(cuda, &mut state, err, len) })?;
        out.push((name.to_string(), unsafe { Tensor::from_ptr(state) }));
    }
    Ok(out)
}

/// Restores what [`generator_state`] read, where `find` has it.
pub fn restore_generators(device: Device, find: impl Fn(&str) -> Option<Tensor>) -> Result<(), ParserError> {
    for (name, cuda) in generators(device) {
        if let Some(state) = find(name) {
            shim("restoring the random generator's state", |err, len| unsafe { lexlog_set_generator_state(cuda, state.as_ptr(), err, len) })?;
        }
    }
    Ok(())
}
