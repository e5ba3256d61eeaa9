/* detach: a task with detach(event) completes only when omp_fulfill_event is called:
 * taskwait, taskgroup and dependent tasks wait for the fulfilment, which may come from another
 * task, another thread, or before the task body even finishes. */
#include "omp_check.h"

int main(void) {
  PHASE("fulfilled by a later task");
  {
    int bad = 0;
#pragma omp parallel
#pragma omp single
    for (int r = 0; r < 30; r++) {
      omp_event_handle_t ev;
      int body = 0, fulfilled = 0;
#pragma omp task detach(ev) shared(body)
      body = 1;
#pragma omp task shared(fulfilled) firstprivate(ev)
      {
        fulfilled = 1;
        omp_fulfill_event(ev);
      }
#pragma omp taskwait
      if (!body || !fulfilled) bad++;
    }
    CHECK(bad == 0, "taskwait returned before the event %d times", bad);
  }

  PHASE("dependent task waits for the event");
  {
    int bad = 0;
#pragma omp parallel
#pragma omp single
    for (int r = 0; r < 30; r++) {
      omp_event_handle_t ev;
      int x = 0, fulfilled = 0;
#pragma omp task detach(ev) depend(out : x) shared(x)
      x = 1;
#pragma omp task depend(in : x) shared(fulfilled, bad)
      if (!__atomic_load_n(&fulfilled, __ATOMIC_ACQUIRE))
        __atomic_add_fetch(&bad, 1, __ATOMIC_RELAXED);
#pragma omp task shared(fulfilled) firstprivate(ev)
      {
        double end = omp_get_wtime() + 0.0002;
        while (omp_get_wtime() < end) {
        }
        __atomic_store_n(&fulfilled, 1, __ATOMIC_RELEASE);
        omp_fulfill_event(ev);
      }
#pragma omp taskwait
    }
    CHECK(bad == 0, "a dependent task ran before the event %d times", bad);
  }

  PHASE("fulfilled inside its own body");
  {
    int ran = 0;
#pragma omp parallel
#pragma omp single
    {
      for (int i = 0; i < 50; i++) {
        omp_event_handle_t ev;
#pragma omp task detach(ev) shared(ran)
        {
          __atomic_add_fetch(&ran, 1, __ATOMIC_RELAXED);
          omp_fulfill_event(ev);
        }
      }
    }
    CHECK(ran == 50, "self-fulfilled tasks %d", ran);
  }

  PHASE("taskgroup waits for the event");
  {
    int order_bad = 0;
    int fulfilled = 0;
#pragma omp parallel
#pragma omp single
    {
#pragma omp taskgroup
      {
        for (int i = 0; i < 8; i++) {
          omp_event_handle_t ev;
          int body = 0;
#pragma omp task detach(ev) firstprivate(body)
          body++;
#pragma omp task firstprivate(ev) shared(fulfilled)
          {
            double end = omp_get_wtime() + 0.0001;
            while (omp_get_wtime() < end) {
            }
            __atomic_add_fetch(&fulfilled, 1, __ATOMIC_RELEASE);
            omp_fulfill_event(ev);
          }
        }
      }
      if (__atomic_load_n(&fulfilled, __ATOMIC_ACQUIRE) != 8) order_bad = 1;
    }
    CHECK(order_bad == 0, "taskgroup ended before all events were fulfilled");
  }

  PHASE("fulfilled from another thread");
  if (omp_get_max_threads() >= 2) {
    omp_event_handle_t ev;
    int armed = 0, fulfilled = 0, bad = 0;
#pragma omp parallel num_threads(2)
    {
      if (omp_get_thread_num() == 0) {
#pragma omp task detach(ev) shared(armed)
        __atomic_store_n(&armed, 1, __ATOMIC_RELEASE);
#pragma omp taskwait
        if (!__atomic_load_n(&fulfilled, __ATOMIC_ACQUIRE)) bad = 1;
      } else {
        if (spin_until(&armed, 5)) {
          __atomic_store_n(&fulfilled, 1, __ATOMIC_RELEASE);
          omp_fulfill_event(ev);
        } else {
          bad = 2;
        }
      }
    }
    CHECK(bad == 0, "cross-thread fulfil: %d", bad);
  }
  return omp_check_result();
}
