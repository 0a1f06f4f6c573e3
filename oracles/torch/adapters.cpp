// PyTorch as an outside implementation (oracles/outside/adapter.hpp): torch_conv.py calls torch.nn.functional as a
// user would, in Debian's python3-torch.

#include "oracles/outside/adapter.hpp"

namespace convcheck {
namespace {

const AdapterRegistration pytorch_server{{
    .name = "pytorch_server",
    .description = "PyTorch through torch.nn.functional.conv*d / conv_transpose*d and autograd, as a user calls it "
                   "(oracles/torch/torch_conv.py as a server; conv and deconv, 1-D to 3-D, f32, f64, bf16, f16)",
    .interpreter = "/usr/bin/python3",
    .script = "oracles/torch/torch_conv.py",
    .arguments = "--server",
    .install_set = "test",
    .version_probe = "import torch; print('torch', torch.__version__)",
}};

} // namespace
} // namespace convcheck
