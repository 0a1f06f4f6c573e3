// oneDNN issue #6035 on the installed oneDNN (docs/findings.md, "Re-checked on the current versions"): strided 1x1
// weight gradients (1-D and 2-D, channels-last and channels-first, batch 1/2/4, 1 to 17 input channels, 1/5/16 output
// channels, a range of sizes, stride 2 on either axis or both), each with guard bytes after the scratchpad and
// diff_weights and exact integer inputs (float32 sums exact, so any error is a bug), run under a TBB arena of
// NTHREADS: oneDNN (TBB threading) plans each primitive for the arena's concurrency, whatever the cores.
//   D=/path/to/onednn; T=/path/to/oneTBB/include (any oneTBB 2021+ headers; the wheel ships none)
//   g++ -O1 -std=c++17 onednn_1x1_wgrad_threads.cpp -I$D/include -I$T -L$D/lib -Wl,--disable-new-dtags,-rpath,$D/lib \
//     -ldnnl -ltbb -o probe1x1
//   OCL_ICD_FILENAMES=$D/lib/libintelocl.so GUARDB=1048576 LAST=1 ./probe1x1 avx2|avx512_core NTHREADS [NAME-FILTER]
// GUARDB: guard bytes after each buffer (default 4096; an overflow past them corrupts the heap); LAST=1: report how
// far past the end the last changed guard byte is, not how many changed; ALL=1: print every problem, not only the bad;
// GC=1: also hold a tbb::global_control of one thread, as convcheck's strategy does (it does not lower the plan).
// Exit status 1 when any problem wrote past a buffer or gave a wrong value.
#include <oneapi/dnnl/dnnl.hpp>
#include <oneapi/tbb/task_arena.h>
#include <oneapi/tbb/global_control.h>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>
#include <memory>
using namespace dnnl;
using tag = memory::format_tag;
static const size_t GUARD = getenv("GUARDB") ? atol(getenv("GUARDB")) : 4096;
struct Guarded { std::vector<unsigned char> bytes; size_t size; int pattern; memory mem; };
static Guarded guarded(const memory::desc &md, const engine &eng, int pattern) {
  Guarded g; g.size = md.get_size(); g.pattern = pattern; g.bytes.assign(g.size + GUARD, (unsigned char)pattern);
  g.mem = memory(md, eng, g.bytes.data()); return g;
}
static size_t past(const Guarded &g) { size_t n = 0, last = 0; for (size_t i = g.size; i < g.size + GUARD; ++i) if (g.bytes[i] != (unsigned char)g.pattern) ++n, last = i - g.size + 1; return getenv("LAST") ? last : n; }
int main(int argc, char **argv) {
  std::string isa = argc > 1 ? argv[1] : "avx2"; int nthr = argc > 2 ? atoi(argv[2]) : 1;
  const char *only = argc > 3 ? argv[3] : nullptr;
  if (isa == "avx2") set_max_cpu_isa(cpu_isa::avx2); else if (isa == "avx512_core") set_max_cpu_isa(cpu_isa::avx512_core);
  std::unique_ptr<tbb::global_control> gc; if (getenv("GC")) gc.reset(new tbb::global_control(tbb::global_control::max_allowed_parallelism, 1));
  tbb::task_arena arena(nthr > 0 ? nthr : tbb::task_arena::automatic);
  arena.execute([&]{ printf("max_concurrency %d\n", tbb::this_task_arena::max_concurrency()); });
  int failures = 0, runs = 0, on_1x1 = 0;
  arena.execute([&] {
    engine eng(engine::kind::cpu, 0); stream s(eng);
    for (int nd : {3, 4}) for (int nchw : {0, 1}) for (long N : {1, 2, 4}) for (long IC : {1, 2, 3, 4, 7, 8, 9, 15, 16, 17})
    for (long OC : {1, 5, 16}) for (long IH : {1, 3, 8, 12}) for (long IW : {6, 10, 14, 28}) for (long SH : {1, 2}) for (long SW : {1, 2}) {
      if (nd == 3 && (IH != 1 || SH != 1)) continue;
      if (SH == 1 && SW == 1) continue;
      const long OH = (IH - 1) / SH + 1, OW = (IW - 1) / SW + 1;
      memory::dims src_d = {N, IC, IH, IW}, dst_d = {N, OC, OH, OW}, wei_d = {OC, IC, 1, 1}, st = {SH, SW}, dl = {0, 0}, pl = {0, 0};
      memory::dims pr = {(OH - 1) * SH - (IH - 1), (OW - 1) * SW - (IW - 1)};
      if (nd == 3) { src_d = {N, IC, IW}; dst_d = {N, OC, OW}; wei_d = {OC, IC, 1}; st = {SW}; dl = {0}; pl = {0}; pr = {pr[1]}; }
      char name[160]; snprintf(name, sizeof name, "mb%ldic%ld%sih%ldiw%ldoc%ldkh1kw1sh%ldsw%ld_%s", N, IC, nd == 3 ? "(1d)" : "", IH, IW, OC, SH, SW, nchw ? "nchw" : "nhwc");
      if (only && !strstr(name, only)) continue;
      const tag dt = nchw ? (nd == 3 ? tag::ncw : tag::nchw) : (nd == 3 ? tag::nwc : tag::nhwc);
      memory::desc smd(src_d, memory::data_type::f32, dt), dmd(dst_d, memory::data_type::f32, dt), wmd(wei_d, memory::data_type::f32, tag::any);
      primitive_attr attr; attr.set_scratchpad_mode(scratchpad_mode::user);
      convolution_backward_weights::primitive_desc pd;
      try {
        convolution_forward::primitive_desc fpd(eng, prop_kind::forward_training, algorithm::convolution_direct, smd, wmd, dmd, st, dl, pl, pr, attr);
        pd = convolution_backward_weights::primitive_desc(eng, algorithm::convolution_direct, smd, wmd, dmd, st, dl, pl, pr, fpd, attr);
      } catch (error &e) { printf("%s: refused %s\n", name, e.what()); continue; }
      const std::string impl = pd.impl_info_str();
      if (impl.rfind("jit_1x1", 0) == 0) ++on_1x1;
      // exact small-integer inputs, canonical
      std::vector<float> src(N * IC * IH * IW), dy(N * OC * OH * OW);
      unsigned r = 12345; auto rnd = [&] { r = r * 1103515245u + 12345u; return (float)((int)((r >> 16) % 9) - 4); };
      for (auto &v : src) v = rnd(); for (auto &v : dy) v = rnd();
      const tag ct = nd == 3 ? tag::ncw : tag::nchw;
      Guarded gs = guarded(pd.src_desc(), eng, 0xff), gd = guarded(pd.diff_dst_desc(), eng, 0xff);
      Guarded gw = guarded(pd.diff_weights_desc(), eng, 0x55), gp = guarded(pd.scratchpad_desc(), eng, 0xab);
      memory cs({src_d, memory::data_type::f32, ct}, eng, src.data()), cd({dst_d, memory::data_type::f32, ct}, eng, dy.data());
      reorder(cs, gs.mem).execute(s, cs, gs.mem); reorder(cd, gd.mem).execute(s, cd, gd.mem); s.wait();
      convolution_backward_weights(pd).execute(s, {{DNNL_ARG_SRC, gs.mem}, {DNNL_ARG_DIFF_DST, gd.mem}, {DNNL_ARG_DIFF_WEIGHTS, gw.mem}, {DNNL_ARG_SCRATCHPAD, gp.mem}});
      s.wait();
      std::vector<float> got(OC * IC);
      memory cw({wei_d, memory::data_type::f32, nd == 3 ? tag::oiw : tag::oihw}, eng, got.data());
      reorder(gw.mem, cw).execute(s, gw.mem, cw); s.wait();
      double worst = 0;
      for (long o = 0; o < OC; ++o) for (long c = 0; c < IC; ++c) {
        double sum = 0;
        for (long n = 0; n < N; ++n) for (long y = 0; y < OH; ++y) for (long x = 0; x < OW; ++x)
          sum += (double)src[((n * IC + c) * IH + y * SH) * IW + x * SW] * dy[((n * OC + o) * OH + y) * OW + x];
        double e = std::fabs(got[o * IC + c] - sum); if (!(e <= worst)) worst = std::isnan(e) ? INFINITY : std::max(worst, e);
      }
      const size_t ps = past(gp), pw = past(gw);
      ++runs;
      const bool bad = ps || pw || worst != 0;
      failures += bad;
      if (bad || getenv("ALL")) printf("%s %s: scratchpad %zu bytes, past scratchpad %zu, past diff_weights %zu, max error %g%s\n", name, impl.c_str(), gp.size, ps, pw, worst, bad ? "  BAD" : "");
    }
  });
  printf("oneDNN %d.%d.%d, isa cap %s, %d logical threads: %d runs (%d on jit_1x1), %d bad\n", version()->major, version()->minor, version()->patch, isa.c_str(), nthr, runs, on_1x1, failures);
  return failures != 0;
}
