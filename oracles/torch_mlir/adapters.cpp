// torch-mlir as an outside implementation (oracles/outside/adapter.hpp): torch_mlir_server.py exports each case's
// aten.convolution (and, for the gradients, aten.convolution_backward) from PyTorch, imports it with torch-mlir's FX
// importer, lowers it with torch-mlir's own pipelines to linalg-on-tensors and runs it through a loops-to-LLVM pipeline
// in MLIR's ExecutionEngine, without IREE, in the pinned venv scripts/install-deps.sh torch_mlir makes
// (docs/libraries/torch_mlir.md).

#include "oracles/outside/adapter.hpp"

namespace convcheck {
namespace {

const AdapterRegistration torch_mlir{{
    .name = "torch_mlir",
    .description = "torch-mlir's TorchToLinalg lowering of aten.convolution (conv and transposed) and its direct "
                   "lowering of aten.convolution_backward, run as loops in MLIR's ExecutionEngine "
                   "(oracles/torch_mlir/torch_mlir_server.py torch_mlir; 1-D to 3-D, f32, f64, f16, bf16; "
                   "canonical layouts)",
    .interpreter = "venvs/torch_mlir/bin/python",
    .script = "oracles/torch_mlir/torch_mlir_server.py",
    .arguments = "torch_mlir",
    .install_set = "torch_mlir",
    .version_probe = "import importlib.metadata as m; print('torch-mlir', m.version('torch-mlir'), 'torch', "
                     "m.version('torch'))",
}};

} // namespace
} // namespace convcheck
