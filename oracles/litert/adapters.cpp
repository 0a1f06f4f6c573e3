// LiteRT (TensorFlow Lite) as outside implementations (oracles/outside/adapter.hpp): litert_server.py builds each
// case as a .tflite model in memory (tflite_model.py: CONV_2D, DEPTHWISE_CONV_2D, CONV_3D, TRANSPOSE_CONV or
// CONV_3D_TRANSPOSE, with PAD and SLICE for the padding TFLite's SAME and VALID cannot say) and runs the same model
// bytes on one of three op resolvers of the Interpreter, in the pinned venv scripts/install-deps.sh litert makes
// (docs/libraries/litert.md).

#include "oracles/outside/adapter.hpp"

namespace convcheck {
namespace {

const char *litert_probe = "import ai_edge_litert; print('ai-edge-litert', ai_edge_litert.__version__)";

const AdapterRegistration litert_xnnpack{{
    .name = "litert_xnnpack",
    .description = "LiteRT's default delegate, XNNPACK, on the whole model (OpResolverType.AUTO; "
                   "oracles/litert/litert_server.py litert_xnnpack; forward only, 1-D and 2-D, f32)",
    .interpreter = "venvs/litert/bin/python",
    .script = "oracles/litert/litert_server.py",
    .arguments = "litert_xnnpack",
    .install_set = "litert",
    .version_probe = litert_probe,
}};

const AdapterRegistration litert_builtin{{
    .name = "litert_builtin",
    .description = "LiteRT's builtin optimized kernels, no delegate (BUILTIN_WITHOUT_DEFAULT_DELEGATES; "
                   "oracles/litert/litert_server.py litert_builtin; forward only, 1-D to 3-D, f32)",
    .interpreter = "venvs/litert/bin/python",
    .script = "oracles/litert/litert_server.py",
    .arguments = "litert_builtin",
    .install_set = "litert",
    .version_probe = litert_probe,
}};

const AdapterRegistration litert_reference{{
    .name = "litert_reference",
    .description = "LiteRT's reference kernels (BUILTIN_REF; oracles/litert/litert_server.py litert_reference; "
                   "forward only, 1-D to 3-D, f32)",
    .interpreter = "venvs/litert/bin/python",
    .script = "oracles/litert/litert_server.py",
    .arguments = "litert_reference",
    .install_set = "litert",
    .version_probe = litert_probe,
}};

} // namespace
} // namespace convcheck
