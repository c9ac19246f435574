// What tch leaves out of reach and an exact `--resume` needs: the state of
// libtorch's AdamW (its step count and moments per parameter) and of the
// default random generators that draw dropout. Each function returns 0, or
// 1 with a message in `err`.

#include <ATen/Context.h>
#include <torch/optim/adamw.h>

#include <cstring>
#include <exception>
#include <memory>
#include <mutex>

namespace {

int fail(char* err, size_t n, const char* message) {
  if (n > 0) {
    std::strncpy(err, message, n - 1);
    err[n - 1] = '\0';
  }
  return 1;
}

at::Tensor& parameter(torch::optim::Optimizer* opt, size_t group, size_t index) {
  auto& groups = opt->param_groups();
  TORCH_CHECK(group < groups.size(), "the optimizer has no parameter group ", group);
  auto& params = groups[group].params();
  TORCH_CHECK(index < params.size(), "parameter group ", group, " has no parameter ", index);
  return params[index];
}

c10::Device generator_device(int cuda) {
  return cuda ? c10::Device(c10::DeviceType::CUDA, 0) : c10::Device(c10::DeviceType::CPU);
}

}  // namespace

#define GUARD(body)                              \
  try {                                          \
    body                                         \
    return 0;                                    \
  } catch (const std::exception& e) {            \
    return fail(err, err_len, e.what());         \
  }

extern "C" {

// The parameter's state: `*step` is -1 where it has none yet (never stepped).
int lexlog_adamw_state(torch::optim::Optimizer* opt, size_t group, size_t index, int64_t* step,
                       at::Tensor** exp_avg, at::Tensor** exp_avg_sq, char* err, size_t err_len) {
  GUARD({
    auto& p = parameter(opt, group, index);
    auto found = opt->state().find(p.unsafeGetTensorImpl());
    *step = -1;
    if (found != opt->state().end()) {
      auto* state = dynamic_cast<torch::optim::AdamWParamState*>(found->second.get());
      TORCH_CHECK(state != nullptr, "the optimizer is not AdamW");
      *step = state->step();
      *exp_avg = new at::Tensor(state->exp_avg().detach().clone());
      *exp_avg_sq = new at::Tensor(state->exp_avg_sq().detach().clone());
    }
  })
}

int lexlog_adamw_set_state(torch::optim::Optimizer* opt, size_t group, size_t index, int64_t step,
                           const at::Tensor* exp_avg, const at::Tensor* exp_avg_sq, char* err,
                           size_t err_len) {
  GUARD({
    auto& p = parameter(opt, group, index);
    TORCH_CHECK(exp_avg->sizes() == p.sizes() && exp_avg_sq->sizes() == p.sizes(),
                "saved moments of shape ", exp_avg->sizes(), " for a parameter of shape ", p.sizes());
    auto state = std::make_unique<torch::optim::AdamWParamState>();
    state->step(step);
    auto like = [&p](const at::Tensor& t) { return t.to(p.options()).clone(at::MemoryFormat::Preserve); };
    state->exp_avg(like(*exp_avg));
    state->exp_avg_sq(like(*exp_avg_sq));
    opt->state()[p.unsafeGetTensorImpl()] = std::move(state);
  })
}

// The default generator's state, as a byte tensor (CUDA's: device 0).
int lexlog_generator_state(int cuda, at::Tensor** state, char* err, size_t err_len) {
  GUARD({
    auto gen = at::globalContext().defaultGenerator(generator_device(cuda));
    std::lock_guard<std::mutex> lock(gen.mutex());
    *state = new at::Tensor(gen.get_state());
  })
}

int lexlog_set_generator_state(int cuda, const at::Tensor* state, char* err, size_t err_len) {
  GUARD({
    auto gen = at::globalContext().defaultGenerator(generator_device(cuda));
    std::lock_guard<std::mutex> lock(gen.mutex());
    gen.set_state(*state);
  })
}

}  // extern "C"
