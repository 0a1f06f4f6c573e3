// The data movements of oracles/loops/tensor_ops.hpp on every storage format: pad (and crop), flip, insert_zeros
// and concatenate copy elements of the tensor's own size. They once read a float16 tensor as double through the
// arithmetic dispatch and overran it fourfold (the xnnpack strategy's crops of an f16 input); the arithmetic ones
// now refuse a storage-only format instead of overrunning it.

#include <cmath>
#include <limits>
#include <stdexcept>
#include <vector>

#include <gtest/gtest.h>

#include "core/tensor/tensor.hpp"
#include "oracles/loops/tensor_ops.hpp"

namespace convcheck {
namespace {

const DType every_format[] = {DType::float32, DType::float64, DType::bfloat16, DType::float16};

// [1, 2, 3, 4] holding 1, 2, 3, ... (exact in every format).
Tensor counting(DType dtype) {
  Tensor tensor(dtype, {1, 2, 3, 4});
  for (int64_t i = 0; i < tensor.size(); ++i) tensor.set(i, static_cast<double>(i + 1));
  return tensor;
}

TEST(TensorOpsFormats, PadAndCropCopyEveryFormatElementForElement) {
  for (const DType dtype : every_format) {
    SCOPED_TRACE(to_string(dtype));
    const Tensor in = counting(dtype);
    // Two rows of zeros above, one column cropped at the left and three zeros added at the right.
    const Tensor out = ops::pad(in, {0, 0, 2, -1}, {0, 0, 0, 3});
    ASSERT_EQ(out.dtype(), dtype);
    ASSERT_EQ(out.shape(), (Shape{1, 2, 5, 6}));
    for (int64_t c = 0; c < 2; ++c)
      for (int64_t y = 0; y < 5; ++y)
        for (int64_t x = 0; x < 6; ++x) {
          const int64_t from_y = y - 2, from_x = x + 1;
          const double want = from_y >= 0 && from_x < 4 ? in.get((c * 3 + from_y) * 4 + from_x) : 0.0;
          ASSERT_EQ(out.get((c * 5 + y) * 6 + x), want) << "c " << c << " y " << y << " x " << x;
        }
  }
}

TEST(TensorOpsFormats, ConcatenateFlipAndInsertZerosKeepEveryFormat) {
  for (const DType dtype : every_format) {
    SCOPED_TRACE(to_string(dtype));
    const Tensor in = counting(dtype);
    std::vector<Tensor> parts;
    parts.push_back(in.clone());
    parts.push_back(in.clone());
    const Tensor joined = ops::concatenate(parts, 1);
    ASSERT_EQ(joined.shape(), (Shape{1, 4, 3, 4}));
    for (int64_t i = 0; i < in.size(); ++i) {
      EXPECT_EQ(joined.get(i), in.get(i));
      EXPECT_EQ(joined.get(in.size() + i), in.get(i));
    }
    const Tensor flipped = ops::flip(in, {3});
    EXPECT_EQ(flipped.get(0), in.get(3));
    const Tensor spread = ops::insert_zeros(in, {1, 1, 1, 2});
    ASSERT_EQ(spread.shape(), (Shape{1, 2, 3, 7}));
    EXPECT_EQ(spread.get(2), in.get(1));
    EXPECT_EQ(spread.get(1), 0.0);
  }
}

TEST(TensorOpsFormats, ArithmeticOnAStorageOnlyFormatIsRefusedNotOverrun) {
  for (const DType dtype : {DType::bfloat16, DType::float16})
    EXPECT_THROW(ops::sum_axis(counting(dtype), 1), std::logic_error) << to_string(dtype);
  EXPECT_EQ(ops::sum_axis(counting(DType::float32), 1).get(0), 1.0 + 13.0);
}

// ops::conv skips input rows that hold only zeros (the zero-inserted inputs of the conv_transpose compositions). The
// sums are the definition's, and a tap that is not finite still makes NaN of the zeros it meets (0 * inf), in both
// of conv's schedules (long output rows, and short ones under a long kernel row).
TEST(TensorOpsConv, RowsOfZerosChangeNoSumAndAnInfiniteTapStillMakesNaN) {
  for (const int64_t width : {5, 1}) { // output rows of 5 (row schedule) and of 1 under a 2-wide kernel
    SCOPED_TRACE(width);
    Tensor data(DType::float64, {1, 1, 4, width + 1}); // rows 1 and 3 are zeros
    for (int64_t x = 0; x <= width; ++x) {
      data.set(0 * (width + 1) + x, 1.0 + static_cast<double>(x));
      data.set(2 * (width + 1) + x, -2.0 * static_cast<double>(x));
    }
    Tensor weight(DType::float64, {1, 1, 2, 2});
    for (int64_t i = 0; i < 4; ++i) weight.set(i, 0.5 + static_cast<double>(i));
    const Tensor out = ops::conv(data, weight, {});
    ASSERT_EQ(out.shape(), (Shape{1, 1, 3, width}));
    for (int64_t y = 0; y < 3; ++y)
      for (int64_t x = 0; x < width; ++x) {
        double want = 0;
        for (int64_t r = 0; r < 2; ++r)
          for (int64_t s = 0; s < 2; ++s) want += data.get((y + r) * (width + 1) + x + s) * weight.get(r * 2 + s);
        EXPECT_EQ(out.get(y * width + x), want) << "y " << y << " x " << x;
      }
    weight.set(3, std::numeric_limits<double>::infinity()); // tap (1, 1) reads rows 1, 2 and 3
    const Tensor poisoned = ops::conv(data, weight, {});
    for (int64_t y = 0; y < 3; ++y) EXPECT_TRUE(std::isnan(poisoned.get(y * width + (width - 1))) || y == 1) << y;
  }
}

} // namespace
} // namespace convcheck
