// OpenVINO as outside implementations (oracles/outside/adapter.hpp): openvino_server.py builds each case as a one-op
// ov.Model in memory (Convolution, GroupConvolution, ConvolutionBackpropData or GroupConvolutionBackpropData, the
// weight a Constant) and compiles it on the CPU plugin with one inference thread and an explicit inference precision
// hint, in the pinned venv scripts/install-deps.sh openvino makes (docs/libraries/openvino.md).

#include "oracles/outside/adapter.hpp"

namespace convcheck {
namespace {

// "openvino 2026.4.1": the release, without the build number and branch get_version() appends
const char *openvino_probe = "import openvino; print('openvino', openvino.get_version().split('-')[0])";

const AdapterRegistration openvino{{
    .name = "openvino",
    .description = "OpenVINO's CPU plugin, INFERENCE_PRECISION_HINT f32 set for every compile (oneDNN convolutions "
                   "through the plugin's Convolution and Deconvolution nodes; oracles/openvino/openvino_server.py "
                   "openvino; forward only, 1-D to 3-D, f32, and f16 and bf16 models as the plugin runs them: "
                   "converted to f32, f32 sums, one rounding)",
    .interpreter = "venvs/openvino/bin/python",
    .script = "oracles/openvino/openvino_server.py",
    .arguments = "openvino",
    .install_set = "openvino",
    .version_probe = openvino_probe,
}};

const AdapterRegistration openvino_bf16{{
    .name = "openvino_bf16",
    .description = "OpenVINO's CPU plugin with INFERENCE_PRECISION_HINT bf16 (oneDNN's bf16 convolutions, f32 sums; "
                   "oracles/openvino/openvino_server.py openvino_bf16; forward only, bf16 rows). Declares nothing "
                   "where the plugin does not honour the hint (no AVX-512: it compiles f32 and reads the hint back "
                   "as f32)",
    .interpreter = "venvs/openvino/bin/python",
    .script = "oracles/openvino/openvino_server.py",
    .arguments = "openvino_bf16",
    .install_set = "openvino",
    .version_probe = openvino_probe,
}};

} // namespace
} // namespace convcheck
