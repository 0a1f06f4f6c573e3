// IREE as outside implementations (oracles/outside/adapter.hpp): iree_server.py writes each case as a PyTorch module
// (aten.convolution, aten.convolution_backward), exports it with iree-turbine into IREE's torch input, compiles it
// with iree-compile for llvm-cpu on this CPU and runs it on IREE's runtime, in the pinned venv
// scripts/install-deps.sh iree makes (docs/libraries/iree.md). The three rows differ in iree-compile's flags only.

#include "oracles/outside/adapter.hpp"

namespace convcheck {
namespace {

const char *iree_probe = "from importlib.metadata import version; print('iree', version('iree-base-compiler'))";

const AdapterRegistration iree{{
    .name = "iree",
    .description = "IREE's torch input pipeline (torch-mlir's TorchToLinalg in IREE) and llvm-cpu codegen, from "
                   "PyTorch modules exported by iree-turbine; gradients by aten.convolution_backward's direct "
                   "lowering (oracles/iree/iree_server.py iree; 1-D to 3-D convs and deconvs, f32, and f16/bf16)",
    .interpreter = "venvs/iree/bin/python",
    .script = "oracles/iree/iree_server.py",
    .arguments = "iree",
    .install_set = "iree",
    .version_probe = iree_probe,
}};

const AdapterRegistration iree_im2col{{
    .name = "iree_im2col",
    .description = "IREE with --iree-global-opt-use-im2col-for-convs: convs rewritten to im2col and a matmul "
                   "(oracles/iree/iree_server.py iree_im2col; 1-D to 3-D convs and deconvs, f32, and f16/bf16)",
    .interpreter = "venvs/iree/bin/python",
    .script = "oracles/iree/iree_server.py",
    .arguments = "iree_im2col",
    .install_set = "iree",
    .version_probe = iree_probe,
}};

const AdapterRegistration iree_winograd{{
    .name = "iree_winograd",
    .description = "IREE with iree-linalg-ext-convert-conv2d-to-winograd{replace-all-convs}: 2-D 3x3 stride-1 convs "
                   "and deconvs by Winograd F(6,3) on IREE's points, judged under that class (oracles/iree/iree_server.py "
                   "iree_winograd; forward only, f32, and f16/bf16)",
    .interpreter = "venvs/iree/bin/python",
    .script = "oracles/iree/iree_server.py",
    .arguments = "iree_winograd",
    .install_set = "iree",
    .version_probe = iree_probe,
}};

} // namespace
} // namespace convcheck
