! fortran_api.f90 — the Fortran bindings of rtpar's OpenMP runtime (the `_` entry points gfortran
! calls through omp_lib): queries inside and outside a region, locks and nest locks by reference,
! wtime/wtick, task queries, and a chain of detached tasks whose events are fulfilled through
! omp_fulfill_event, the one omp_lib routine that passes its argument BY VALUE (a by-reference
! reading dereferences the handle and crashes). Exit status 1..N names the failed check.
program fortran_api
  use omp_lib
  implicit none
  integer (kind=omp_event_handle_kind) :: ev1, ev2
  integer (kind=omp_lock_kind) :: lock
  integer (kind=omp_nest_lock_kind) :: nest
  integer :: x, y, z, team, hits, depth
  double precision :: t0

  x = 0
  y = 0
  z = 0
  hits = 0
  team = -1
  if (omp_in_parallel ()) stop 1
  if (omp_get_thread_num () /= 0) stop 2
  if (omp_get_wtick () <= 0.0d0) stop 3
  t0 = omp_get_wtime ()

  call omp_init_lock (lock)
  call omp_init_nest_lock (nest)
  !$omp parallel shared (team, hits)
    !$omp single
      team = omp_get_num_threads ()
    !$omp end single
    call omp_set_lock (lock)
    hits = hits + 1
    call omp_unset_lock (lock)
    call omp_set_nest_lock (nest)
    call omp_set_nest_lock (nest)
    depth = omp_test_nest_lock (nest)
    call omp_unset_nest_lock (nest)
    call omp_unset_nest_lock (nest)
    call omp_unset_nest_lock (nest)
  !$omp end parallel
  call omp_destroy_lock (lock)
  call omp_destroy_nest_lock (nest)
  if (team < 1) stop 4
  if (hits /= team) stop 5
  if (omp_get_max_task_priority () < 0) stop 6

  ! Each task fulfils the event of the one before; the region ends only when all are complete.
  !$omp parallel
    !$omp single
      !$omp task detach (ev1)
        x = x + 1
      !$omp end task
      !$omp task detach (ev2)
        y = y + 1
        call omp_fulfill_event (ev1)
      !$omp end task
      !$omp task
        if (omp_in_final ()) z = 100
        z = z + 1
        call omp_fulfill_event (ev2)
      !$omp end task
    !$omp end single
  !$omp end parallel
  if (x /= 1) stop 7
  if (y /= 1) stop 8
  if (z /= 1) stop 9
  if (omp_get_wtime () < t0) stop 10
end program fortran_api
