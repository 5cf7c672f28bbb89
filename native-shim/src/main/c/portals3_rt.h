/*
 * portals3_rt.h: the job a Portals3J C program runs in (portals run -n N -- ./prog).
 *
 * Rank r of a job of N is process {nid r, pid 0} on the default interface. Each function returns 0 (or
 * the value asked for) on success and a negative number on error, after printing why on stderr: the
 * job cannot be joined (a bad PORTALS_* environment, the rendezvous is unreachable), the Java engine
 * cannot be started, or an argument is out of range. A program started without portals run is a job of
 * one rank.
 */
#ifndef PORTALS3_RT_H
#define PORTALS3_RT_H

#include "portals3.h"

#ifdef __cplusplus
extern "C" {
#endif

/* This process's rank, 0 .. ptl_rt_size()-1. */
int ptl_rt_rank(void);

/* The number of ranks in the job. */
int ptl_rt_size(void);

/* The process id of rank `rank` (for PtlPut, PtlGet, PtlMEAttach, PtlACEntry); -1 if rank is not
 * 0 .. size-1 or id is NULL. */
int ptl_rt_process_id(int rank, ptl_process_id_t *id);

/* Waits until every rank has called ptl_rt_barrier() as often as this one (through the job's
 * rendezvous: meant for start-up and shutdown, not for a fast path). */
int ptl_rt_barrier(void);

#ifdef __cplusplus
}
#endif

#endif /* PORTALS3_RT_H */
