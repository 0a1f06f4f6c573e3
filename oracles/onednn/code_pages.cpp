// A pool for the pages oneDNN JIT-compiles its kernels into.
//
// oneDNN (2.6 as 3.13) gives every JIT kernel its own code buffer through Xbyak's MmapAllocator: mmap 256 or 320 KiB,
// mprotect it read-write-execute, write the kernel, and at the kernel's end mprotect it back to read-write and
// munmap it. A fuzz case has a new shape, so a case on a JIT path generates several kernels and reorders, and each
// pays three system calls, page faults on fresh pages and, on munmap, a TLB flush. On this project's VMs page
// faults are dear and mapping changes in two processes at once serialise (docs/performance.md, "Machine figures
// behind the code"). That, not our code, is what held 2-worker scaling well under 2x.
//
// So convcheck defines mmap, mprotect and munmap itself. A definition in the executable comes first in symbol
// lookup, so libdnnl's calls (through its PLT) land here; everything else passes straight to the system call.
// A region is pooled when all of these hold:
//   - libdnnl asked for it: the call returns into libdnnl's code (located once at start-up), an anonymous private
//     mapping anywhere (no address hint, no file);
//   - it was then made executable: it holds code, so its next user will overwrite it with code. Regions that never
//     became executable are unmapped as asked, so no one but a code generator ever gets a used (non-zero) region;
//   - the next request comes from the same call site with the same length.
// A pooled region stays mapped read-write-execute (what Xbyak asks for while a kernel lives), so reusing it takes
// no system call and no page fault; oneDNN's mprotect calls on it do nothing. Writing new code over old code is
// safe on x86, whose instruction fetch is coherent with stores.
//
// The pool is a fixed table behind a spinlock: mmap must not allocate, and oneDNN creates primitives from several
// threads when asked. When the table is full, regions pass through untracked. Under the sanitizers, which
// intercept mmap themselves, the pool is compiled out.

#include "oracles/onednn/code_pages.hpp"

#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
#define CONVCHECK_CODE_PAGES 0
#elif defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer) || __has_feature(memory_sanitizer)
#define CONVCHECK_CODE_PAGES 0
#endif
#endif
#ifndef CONVCHECK_CODE_PAGES
#define CONVCHECK_CODE_PAGES 1
#endif

#if CONVCHECK_CODE_PAGES

#include <link.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <cstring>

namespace {

struct Region {
  std::uintptr_t begin = 0; // 0: a free slot
  std::size_t length = 0;
  std::uintptr_t caller = 0; // where in libdnnl the mmap was called from
  bool in_use = false;
  bool executable = false;

  bool overlaps(std::uintptr_t address, std::size_t size) const {
    return begin != 0 && address < begin + length && begin < address + size;
  }
};

constexpr std::size_t slots = 256; // about 70 are live at once in a fuzz campaign's worker

Region regions[slots];
convcheck::CodePageCounts counts;
std::atomic_flag busy = ATOMIC_FLAG_INIT;

class Lock {
public:
  Lock() {
    while (busy.test_and_set(std::memory_order_acquire)) {
    }
  }
  ~Lock() { busy.clear(std::memory_order_release); }
  Lock(const Lock &) = delete;
  Lock &operator=(const Lock &) = delete;
};

/// libdnnl's executable segments, [begin, end); empty until found.
struct CodeRange {
  std::uintptr_t begin = 0, end = 0;
  bool contains(std::uintptr_t address) const { return address >= begin && address < end; }
};

int find_libdnnl(dl_phdr_info *library, std::size_t, void *found) {
  if (library->dlpi_name == nullptr || std::strstr(library->dlpi_name, "/libdnnl.so") == nullptr) return 0;
  auto &range = *static_cast<CodeRange *>(found);
  range.begin = UINTPTR_MAX;
  for (int i = 0; i < library->dlpi_phnum; ++i) {
    const ElfW(Phdr) &segment = library->dlpi_phdr[i];
    if (segment.p_type != PT_LOAD || (segment.p_flags & PF_X) == 0) continue;
    range.begin = std::min<std::uintptr_t>(range.begin, library->dlpi_addr + segment.p_vaddr);
    range.end = std::max<std::uintptr_t>(range.end, library->dlpi_addr + segment.p_vaddr + segment.p_memsz);
  }
  return 1;
}

/// Set by a static initialiser, after libdnnl (a DT_NEEDED of every executable linking this) is loaded; until
/// then nothing is pooled.
const CodeRange libdnnl_code = [] {
  CodeRange range;
  dl_iterate_phdr(find_libdnnl, &range);
  return range;
}();

void *system_mmap(void *address, std::size_t length, int prot, int flags, int fd, off_t offset) {
  return reinterpret_cast<void *>(syscall(SYS_mmap, address, length, prot, flags, fd, offset));
}

int system_mprotect(void *address, std::size_t length, int prot) {
  return static_cast<int>(syscall(SYS_mprotect, address, length, prot));
}

int system_munmap(void *address, std::size_t length) {
  return static_cast<int>(syscall(SYS_munmap, address, length));
}

/// The tracked region that is exactly [address, address + length), if any. A call on part of a region, or on
/// more than one, would leave a region's pages unlike what the pool assumes: such regions are forgotten, so they
/// are neither pooled nor skipped later. Call with the lock held.
Region *exactly(void *address, std::size_t length) {
  const auto begin = reinterpret_cast<std::uintptr_t>(address);
  Region *match = nullptr;
  for (Region &region : regions) {
    if (region.begin == begin && region.length == length) match = &region;
    else if (region.overlaps(begin, length)) region = Region{};
  }
  return match;
}

} // namespace

extern "C" {

void *mmap(void *address, std::size_t length, int prot, int flags, int fd, off_t offset) {
  const auto caller = reinterpret_cast<std::uintptr_t>(__builtin_return_address(0));
  if (address != nullptr || fd != -1 || flags != (MAP_PRIVATE | MAP_ANONYMOUS) || !libdnnl_code.contains(caller))
    return system_mmap(address, length, prot, flags, fd, offset);
  {
    Lock lock;
    for (Region &region : regions)
      if (region.executable && !region.in_use && region.caller == caller && region.length == length) {
        region.in_use = true;
        ++counts.reused;
        return reinterpret_cast<void *>(region.begin);
      }
  }
  void *fresh = system_mmap(nullptr, length, prot, flags, fd, offset);
  if (fresh == MAP_FAILED) return fresh;
  Lock lock;
  const auto free_slot =
      std::find_if(std::begin(regions), std::end(regions), [](const Region &r) { return r.begin == 0; });
  if (free_slot != std::end(regions))
    *free_slot = Region{reinterpret_cast<std::uintptr_t>(fresh), length, caller, true, false};
  return fresh;
}

int mprotect(void *address, std::size_t length, int prot) {
  bool tracked = false;
  {
    Lock lock;
    const Region *region = exactly(address, length);
    if (region != nullptr && region->executable) return 0; // it stays read-write-execute while pooled
    tracked = region != nullptr;
  }
  if (!tracked || (prot & PROT_EXEC) == 0) return system_mprotect(address, length, prot);
  // Writable too, so that the next kernel can be written into it without another mprotect.
  const int status = system_mprotect(address, length, prot | PROT_READ | PROT_WRITE);
  if (status != 0) return status;
  Lock lock;
  if (Region *region = exactly(address, length); region != nullptr && !region->executable) {
    region->executable = true;
    ++counts.mapped;
  }
  return 0;
}

int munmap(void *address, std::size_t length) {
  {
    Lock lock;
    if (Region *region = exactly(address, length); region != nullptr) {
      if (region->executable && region->in_use) {
        region->in_use = false;
        return 0;
      }
      *region = Region{}; // never held code, or unmapped twice: unmap it for real
    }
  }
  return system_munmap(address, length);
}

} // extern "C"

namespace convcheck {

bool onednn_code_pages_enabled() { return libdnnl_code.begin < libdnnl_code.end; }

CodePageCounts onednn_code_page_counts() {
  Lock lock;
  return counts;
}

} // namespace convcheck

#else // the sanitizers' own mmap interceptors stay in charge

namespace convcheck {

bool onednn_code_pages_enabled() { return false; }

CodePageCounts onednn_code_page_counts() { return {}; }

} // namespace convcheck

#endif
