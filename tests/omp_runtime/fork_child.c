/* fork_child.c — a child made by fork() after the parent ran parallel regions runs regions of
 * its own (the parent's workers do not exist in the child: the runtime forgets its teams there
 * and builds new ones). Exits 0 when the child's team is complete. */
#include <omp.h>
#include <stdio.h>
#include <sys/wait.h>
#include <unistd.h>

int main(void) {
  int parent = 0;
#pragma omp parallel reduction(+ : parent)
  parent++;
  const pid_t pid = fork();
  if (pid == 0) {
    int child = 0;
    for (int i = 0; i < 10; ++i) {
      child = 0;
#pragma omp parallel reduction(+ : child)
      child++;
    }
    _exit(child == parent ? 0 : 1);
  }
  int status = 0;
  if (pid < 0 || waitpid(pid, &status, 0) != pid) return 2;
  if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
    fprintf(stderr, "fork_child: the child's region failed (status %d)\n", status);
    return 1;
  }
  return 0;
}
