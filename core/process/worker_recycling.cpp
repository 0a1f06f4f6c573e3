#include "core/process/worker_recycling.hpp"

#include <sys/resource.h>

namespace convcheck {

bool WorkerRecycling::due(int64_t cases_run) const {
  if (max_cases > 0 && cases_run >= max_cases) return true;
  if (max_rss_mib <= 0) return false;
  rusage usage{}; // getrusage is one system call, cheap enough to ask after every case; /proc/self/statm is not
  return getrusage(RUSAGE_SELF, &usage) == 0 && usage.ru_maxrss / 1024 >= max_rss_mib;
}

} // namespace convcheck
