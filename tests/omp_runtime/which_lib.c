/* which_lib.c — prints the path of the libgomp.so.1 mapped into this process, the team size of a
 * parallel region, and its scheduling policy; exits with the status given as argv[1]. Used by
 * omp_cli_test.sh to check what `rtpar omp` set up. */
#define _GNU_SOURCE
#include <omp.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int main(int argc, char** argv) {
  char line[4096], found[4096] = "";
  FILE* maps = fopen("/proc/self/maps", "r");
  while (maps && fgets(line, sizeof line, maps)) {
    char* p = strchr(line, '/');
    if (p && strstr(p, "libgomp.so.1")) {
      p[strcspn(p, "\n")] = 0;
      snprintf(found, sizeof found, "%s", p);
    }
  }
  if (maps) fclose(maps);
  int team = 0, policy = -1;
#pragma omp parallel
  {
#pragma omp master
    {
      team = omp_get_num_threads();
      policy = sched_getscheduler(0);
    }
  }
  cpu_set_t set;
  CPU_ZERO(&set);
  sched_getaffinity(0, sizeof set, &set);
  printf("lib=%s\nteam=%d\npolicy=%s\ncpus=%d\n", found, team,
         policy == SCHED_FIFO ? "fifo" : "other", CPU_COUNT(&set));
  return argc > 1 ? atoi(argv[1]) : 0;
}
