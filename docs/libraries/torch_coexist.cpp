// oneDNN 3.13 from its wheel (libdnnl.so.3: SYCL CPU runtime, TBB threading) linked into the process, as the ported
// onednn strategy will be, and convcheck's torch module (libtorch 2.15 with its bundled oneDNN 3.13.3) loaded the way
// oracles/torch/torch.cpp loads it (argv[2]: dlmopen or dlopen): both compute a convolution, before and after each
// other, and the process exits.
#include <dlfcn.h>
#include <oneapi/dnnl/dnnl.h>
#include <cstdio>
#include <cstring>
#include <vector>
#include "oracles/torch/torch_module.hpp"
using namespace convcheck::torch_module;
#define CHECK(x) do { dnnl_status_t status_ = (x); if (status_ != dnnl_success) { std::printf("%s: %d\n", #x, status_); return 1; } } while (0)

static int onednn_conv(float *out) { // 1x1x4x4 input of ones, 1x1x3x3 weight of ones: every output 9
  dnnl_engine_t engine; CHECK(dnnl_engine_create(&engine, dnnl_cpu, 0));
  dnnl_stream_t stream; CHECK(dnnl_stream_create(&stream, engine, dnnl_stream_default_flags));
  dnnl_dims_t s = {1, 1, 4, 4}, w = {1, 1, 3, 3}, d = {1, 1, 2, 2}, st = {1, 1}, dl = {0, 0}, p = {0, 0};
  dnnl_memory_desc_t smd, wmd, dmd;
  CHECK(dnnl_memory_desc_create_with_tag(&smd, 4, s, dnnl_f32, dnnl_nchw));
  CHECK(dnnl_memory_desc_create_with_tag(&wmd, 4, w, dnnl_f32, dnnl_oihw));
  CHECK(dnnl_memory_desc_create_with_tag(&dmd, 4, d, dnnl_f32, dnnl_nchw));
  dnnl_primitive_desc_t pd;
  CHECK(dnnl_convolution_forward_primitive_desc_create(&pd, engine, dnnl_forward_inference, dnnl_convolution_direct,
                                                       smd, wmd, nullptr, dmd, st, dl, p, p, nullptr));
  dnnl_primitive_t prim; CHECK(dnnl_primitive_create(&prim, pd));
  std::vector<float> src(16, 1.f), wei(9, 1.f);
  dnnl_memory_t sm, wm, dm;
  CHECK(dnnl_memory_create(&sm, smd, engine, src.data())); CHECK(dnnl_memory_create(&wm, wmd, engine, wei.data()));
  CHECK(dnnl_memory_create(&dm, dmd, engine, out));
  dnnl_exec_arg_t args[] = {{DNNL_ARG_SRC, sm}, {DNNL_ARG_WEIGHTS, wm}, {DNNL_ARG_DST, dm}};
  CHECK(dnnl_primitive_execute(prim, stream, 3, args)); CHECK(dnnl_stream_wait(stream));
  const char *impl = nullptr; dnnl_primitive_desc_query(pd, dnnl_query_impl_info_str, 0, &impl);
  std::printf("libdnnl.so.3 %d.%d.%d: %s -> %g\n", dnnl_version()->major, dnnl_version()->minor, dnnl_version()->patch, impl, out[0]);
  dnnl_memory_destroy(sm); dnnl_memory_destroy(wm); dnnl_memory_destroy(dm); dnnl_primitive_destroy(prim);
  dnnl_primitive_desc_destroy(pd); dnnl_stream_destroy(stream); dnnl_engine_destroy(engine);
  return 0;
}

int main(int argc, char **argv) {
  float out[4];
  if (onednn_conv(out)) return 1;
  void *h = std::strcmp(argv[2], "dlmopen") == 0 ? dlmopen(LM_ID_NEWLM, argv[1], RTLD_NOW | RTLD_LOCAL) : dlopen(argv[1], RTLD_NOW | RTLD_LOCAL);
  if (!h) { std::printf("load: %s\n", dlerror()); return 1; }
  auto run = reinterpret_cast<RunFunction>(dlsym(h, run_symbol));
  auto version = reinterpret_cast<VersionFunction>(dlsym(h, version_symbol));
  auto capability = reinterpret_cast<CapabilityFunction>(dlsym(h, capability_symbol));
  char text[128], cap[32];
  version(text, sizeof text);
  Conv c; c.batch = 2; c.in_channels = 8; c.out_channels = 8;
  c.in[0] = c.in[1] = 6; c.kernel[0] = c.kernel[1] = 3; c.stride[0] = c.stride[1] = 1; c.dilation[0] = c.dilation[1] = 1;
  std::vector<float> data(2 * 8 * 36, 1.f), weight(8 * 8 * 9, 1.f), output(2 * 8 * 16, 0.f);
  c.data = data.data(); c.weight = weight.data();
  Results r; r.output = output.data();
  run(c, r);
  capability(cap, sizeof cap);
  std::printf("torch module (%s) %s on %s: %s -> %g\n", argv[2], text, cap, r.forward_error, output[0]);
  if (onednn_conv(out)) return 1;
  std::printf("exiting\n");
  return 0;
}
