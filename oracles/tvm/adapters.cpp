// Apache TVM as an outside implementation (oracles/outside/adapter.hpp): tvm_server.py builds each case as a Relax
// module (R.nn.conv1d/2d/3d or their transposes; for a gradient, Relax's own Gradient pass over sum(conv(x, w) * dy)),
// converts it to the case's layouts with ConvertLayout and compiles it with LLVM for the host CPU, in the pinned venv
// scripts/install-deps.sh tvm makes (docs/libraries/tvm.md).

#include "oracles/outside/adapter.hpp"

namespace convcheck {
namespace {

const AdapterRegistration tvm{{
    .name = "tvm",
    .description = "Apache TVM's Relax convs and transposed convs, legalized to TOPI and compiled by LLVM for this CPU; "
                   "gradients by Relax's Gradient pass (conv2d only: the one conv it registers a gradient for) "
                   "(oracles/tvm/tvm_server.py tvm; 1-D to 3-D, f32, f64, and f16/bf16 inputs with float32 sums)",
    .interpreter = "venvs/tvm/bin/python",
    .script = "oracles/tvm/tvm_server.py",
    .arguments = "tvm",
    .install_set = "tvm",
    .version_probe = "import tvm; print('tvm', tvm.__version__)",
}};

} // namespace
} // namespace convcheck
