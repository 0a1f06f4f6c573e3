// ONNX Runtime as outside implementations (oracles/outside/adapter.hpp): onnxruntime_server.py builds each case as a
// one-node ONNX model in memory (Conv or ConvTranspose, the weight a constant initializer) and runs it on the CPU
// execution provider, in the pinned venv scripts/install-deps.sh onnxruntime makes (docs/libraries/onnxruntime.md).

#include "oracles/outside/adapter.hpp"

namespace convcheck {
namespace {

const char *onnxruntime_probe = "import onnxruntime; print('onnxruntime', onnxruntime.__version__)";

const AdapterRegistration onnxruntime{{
    .name = "onnxruntime",
    .description = "ONNX Runtime's CPU Conv and ConvTranspose kernels on MLAS, graph optimizations off "
                   "(oracles/onnxruntime/onnxruntime_server.py onnxruntime; forward only, 1-D to 3-D, f32 and f16)",
    .interpreter = "venvs/onnxruntime/bin/python",
    .script = "oracles/onnxruntime/onnxruntime_server.py",
    .arguments = "onnxruntime",
    .install_set = "onnxruntime",
    .version_probe = onnxruntime_probe,
}};

const AdapterRegistration onnxruntime_nchwc{{
    .name = "onnxruntime_nchwc",
    .description = "ONNX Runtime at ORT_ENABLE_ALL, where the NCHWc transformer rewrites a Conv into MLAS's "
                   "blocked NchwcConv (oracles/onnxruntime/onnxruntime_server.py onnxruntime_nchwc; forward 2-D "
                   "convs, f32 and f16)",
    .interpreter = "venvs/onnxruntime/bin/python",
    .script = "oracles/onnxruntime/onnxruntime_server.py",
    .arguments = "onnxruntime_nchwc",
    .install_set = "onnxruntime",
    .version_probe = onnxruntime_probe,
}};

} // namespace
} // namespace convcheck
