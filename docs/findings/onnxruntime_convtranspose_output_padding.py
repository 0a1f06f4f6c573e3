# ONNX Runtime's CPU ConvTranspose with an output_padding at least its stride (valid where the dilation is larger:
# output_padding < max(stride, dilation), PyTorch's rule and ONNX Runtime's own first check). 1.26 and 1.27 return
# wrong values; 1.28 to 1.32 (the newest checked) refuse the model at run time with INVALID_ARGUMENT
# "Computed output shape is inconsistent with input spatial dimensions. output_padding (2) may be too large for
# stride (1)". torch.onnx.export writes such nodes, e.g. for torch.nn.ConvTranspose2d(4, 4, 3, stride=1, padding=1,
# dilation=2, output_padding=1). Needs onnxruntime, onnx and numpy only; exact small integers, so any difference is
# the bug, not rounding.
#   python onnxruntime_convtranspose_output_padding.py   -> exit 1 while the bug shows (either way), 0 when right
#   1.26.0 and 1.27.0: Y [2, 4, 6, 14, 10, 4, 0, 0, 0] where [2, 4, 6, 10, 4, 6, 8, 0, 0] is right (a 1-D model of the
#   same height gives the right values there); 1.28.0 to 1.32.0: refused
import sys

import numpy as np
import onnxruntime as ort
from onnx import TensorProto, helper, numpy_helper

# 2-D, all on the height axis (width 1); a 1-D model of the same height gives the right values in 1.27.
size, kernel, stride, dilation, output_padding = 4, 2, 1, 3, 2  # out = (4-1)*1 + 3*(2-1) + 2 + 1 = 9
x = np.arange(1, size + 1, dtype=np.float32).reshape(1, 1, size, 1)    # [N, C_in, H, W]: 1 2 3 4 down the height
w = np.full((1, 1, kernel, 1), 2.0, np.float32)                        # ConvTranspose's W: [C_in, C_out/group, kh, kw]
node = helper.make_node("ConvTranspose", ["X", "W"], ["Y"], kernel_shape=[kernel, 1], strides=[stride, 1],
                        dilations=[dilation, 1], pads=[0, 0, 0, 0], output_padding=[output_padding, 0])
graph = helper.make_graph([node], "convtranspose", [helper.make_tensor_value_info("X", TensorProto.FLOAT, x.shape)],
                          [helper.make_tensor_value_info("Y", TensorProto.FLOAT, None)],
                          [numpy_helper.from_array(w, "W")])
model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)], ir_version=8)

# The float64 reference: each input element scattered through the dilated kernel; the output_padding positions no
# tap reaches stay zero.
out = (size - 1) * stride + dilation * (kernel - 1) + output_padding + 1
expected = np.zeros(out)
for i in range(size):
    for r in range(kernel):
        expected[i * stride + r * dilation] += float(x[0, 0, i, 0]) * float(w[0, 0, r, 0])

print("onnxruntime", ort.__version__)
try:
    (y,) = ort.InferenceSession(model.SerializeToString(), providers=["CPUExecutionProvider"]).run(None, {"X": x})
except Exception as error:  # 1.28.0 to 1.32.0
    print("the bug shows: refused:", error)
    sys.exit(1)
print("Y", y.ravel().tolist(), "expected", expected.tolist())
if y.shape != (1, 1, out, 1) or not np.array_equal(y.ravel(), expected):
    print("the bug shows: wrong values")
    sys.exit(1)
