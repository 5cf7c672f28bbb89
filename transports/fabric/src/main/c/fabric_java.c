/*
 * libfabric-java.so: one exported function per static inline libfabric call that the Java binding
 * (org.portals3j.fabric) uses. libfabric.so.1 exports only 16 functions; everything past fi_fabric dispatches
 * through per-object ops tables in static inline code (gm-libfabric.md section 0 item 3 and section 2.1), which
 * Java cannot call. Each fj_* function is exactly the inline call it names, with pointer-sized contexts passed
 * as uint64_t (the binding's operation contexts are caller-chosen longs, never dereferenced: the binding asks
 * for mode 0, no FI_CONTEXT). No state, no allocation, no locking: the return code is libfabric's, unchanged.
 */
#include <stdint.h>
#include <stddef.h>
#include <sys/uio.h>

#include <rdma/fabric.h>
#include <rdma/fi_cm.h>
#include <rdma/fi_domain.h>
#include <rdma/fi_endpoint.h>
#include <rdma/fi_eq.h>
#include <rdma/fi_errno.h>
#include <rdma/fi_rma.h>
#include <rdma/fi_tagged.h>

#define FJ_EXPORT __attribute__((visibility("default")))

#define FJ_CTX(c) ((void *) (uintptr_t) (c))

FJ_EXPORT int fj_domain(struct fid_fabric *fabric, struct fi_info *info, struct fid_domain **domain)
{
    return fi_domain(fabric, info, domain, NULL);
}

FJ_EXPORT int fj_endpoint(struct fid_domain *domain, struct fi_info *info, struct fid_ep **ep)
{
    return fi_endpoint(domain, info, ep, NULL);
}

FJ_EXPORT int fj_av_open(struct fid_domain *domain, struct fi_av_attr *attr, struct fid_av **av)
{
    return fi_av_open(domain, attr, av, NULL);
}

/* Returns the number of addresses inserted (libfabric's count), or a negative FI_* error. */
FJ_EXPORT int fj_av_insert(struct fid_av *av, const void *addr, size_t count, fi_addr_t *fi_addr)
{
    return fi_av_insert(av, addr, count, fi_addr, 0, NULL);
}

FJ_EXPORT int fj_av_remove(struct fid_av *av, fi_addr_t *fi_addr, size_t count)
{
    return fi_av_remove(av, fi_addr, count, 0);
}

FJ_EXPORT int fj_cq_open(struct fid_domain *domain, struct fi_cq_attr *attr, struct fid_cq **cq)
{
    return fi_cq_open(domain, attr, cq, NULL);
}

FJ_EXPORT int fj_ep_bind(struct fid_ep *ep, struct fid *bfid, uint64_t flags)
{
    return fi_ep_bind(ep, bfid, flags);
}

FJ_EXPORT int fj_enable(struct fid_ep *ep)
{
    return fi_enable(ep);
}

/* Before fj_enable: names the endpoint (shm: the name of its region in /dev/shm, fi_shm(7) "Address Format"). */
FJ_EXPORT int fj_setname(struct fid *fid, void *addr, size_t addrlen)
{
    return fi_setname(fid, addr, addrlen);
}

FJ_EXPORT int fj_getname(struct fid *fid, void *addr, size_t *addrlen)
{
    return fi_getname(fid, addr, addrlen);
}

FJ_EXPORT int fj_mr_reg(struct fid_domain *domain, const void *buf, size_t len, uint64_t access,
                        uint64_t requested_key, struct fid_mr **mr)
{
    return fi_mr_reg(domain, buf, len, access, 0, requested_key, 0, mr, NULL);
}

FJ_EXPORT uint64_t fj_mr_key(struct fid_mr *mr)
{
    return fi_mr_key(mr);
}

FJ_EXPORT void *fj_mr_desc(struct fid_mr *mr)
{
    return fi_mr_desc(mr);
}

FJ_EXPORT int fj_close(struct fid *fid)
{
    return fi_close(fid);
}

/* fi_control(FI_GETWAIT) for an FD wait object: the descriptor, or a negative FI_* error. */
FJ_EXPORT int fj_cq_wait_fd(struct fid_cq *cq)
{
    int fd = -1;
    int rc = fi_control(&cq->fid, FI_GETWAIT, &fd);
    return rc != 0 ? rc : fd;
}

FJ_EXPORT ssize_t fj_tsend(struct fid_ep *ep, const void *buf, size_t len, void *desc, fi_addr_t dest,
                           uint64_t tag, uint64_t context)
{
    return fi_tsend(ep, buf, len, desc, dest, tag, FJ_CTX(context));
}

FJ_EXPORT ssize_t fj_tsenddata(struct fid_ep *ep, const void *buf, size_t len, void *desc, uint64_t data,
                               fi_addr_t dest, uint64_t tag, uint64_t context)
{
    return fi_tsenddata(ep, buf, len, desc, data, dest, tag, FJ_CTX(context));
}

FJ_EXPORT ssize_t fj_trecv(struct fid_ep *ep, void *buf, size_t len, void *desc, fi_addr_t src, uint64_t tag,
                           uint64_t ignore, uint64_t context)
{
    return fi_trecv(ep, buf, len, desc, src, tag, ignore, FJ_CTX(context));
}

FJ_EXPORT ssize_t fj_cq_read(struct fid_cq *cq, void *buf, size_t count)
{
    return fi_cq_read(cq, buf, count);
}

FJ_EXPORT ssize_t fj_cq_readerr(struct fid_cq *cq, struct fi_cq_err_entry *entry)
{
    return fi_cq_readerr(cq, entry, 0);
}

FJ_EXPORT ssize_t fj_read(struct fid_ep *ep, void *buf, size_t len, void *desc, fi_addr_t src, uint64_t addr,
                          uint64_t key, uint64_t context)
{
    return fi_read(ep, buf, len, desc, src, addr, key, FJ_CTX(context));
}

/*
 * fi_writemsg with FI_DELIVERY_COMPLETE: the local completion means the data is visible at the target, which a
 * plain fi_write does not promise on rxm (gm-libfabric.md section 2.4, tcp;ofi_rxm; ofiwg/libfabric #9651).
 */
FJ_EXPORT ssize_t fj_write_delivered(struct fid_ep *ep, const void *buf, size_t len, void *desc, fi_addr_t dest,
                                     uint64_t addr, uint64_t key, uint64_t context)
{
    struct iovec iov = { .iov_base = (void *) buf, .iov_len = len };
    struct fi_rma_iov rma = { .addr = addr, .len = len, .key = key };
    struct fi_msg_rma msg = {
        .msg_iov = &iov, .desc = &desc, .iov_count = 1, .addr = dest,
        .rma_iov = &rma, .rma_iov_count = 1, .context = FJ_CTX(context), .data = 0,
    };
    return fi_writemsg(ep, &msg, FI_COMPLETION | FI_DELIVERY_COMPLETE);
}

/* The FI_* name of a positive libfabric error number, or NULL if it is none this binding knows. */
FJ_EXPORT const char *fj_errno_name(int err)
{
    switch (err) {
#define FJ_NAME(e) case e: return #e
    FJ_NAME(FI_EPERM); FJ_NAME(FI_ENOENT); FJ_NAME(FI_EINTR); FJ_NAME(FI_EIO); FJ_NAME(FI_E2BIG);
    FJ_NAME(FI_EBADF); FJ_NAME(FI_EAGAIN); FJ_NAME(FI_ENOMEM); FJ_NAME(FI_EACCES); FJ_NAME(FI_EFAULT);
    FJ_NAME(FI_EBUSY); FJ_NAME(FI_ENODEV); FJ_NAME(FI_EINVAL); FJ_NAME(FI_EMFILE); FJ_NAME(FI_ENOSPC);
    FJ_NAME(FI_ENOSYS); FJ_NAME(FI_ENOMSG); FJ_NAME(FI_ENODATA); FJ_NAME(FI_EOVERFLOW);
    FJ_NAME(FI_EMSGSIZE); FJ_NAME(FI_ENOPROTOOPT); FJ_NAME(FI_EOPNOTSUPP); FJ_NAME(FI_EADDRINUSE);
    FJ_NAME(FI_EADDRNOTAVAIL); FJ_NAME(FI_ENETDOWN); FJ_NAME(FI_ENETUNREACH); FJ_NAME(FI_ECONNABORTED);
    FJ_NAME(FI_ECONNRESET); FJ_NAME(FI_ENOBUFS); FJ_NAME(FI_EISCONN); FJ_NAME(FI_ENOTCONN);
    FJ_NAME(FI_ESHUTDOWN); FJ_NAME(FI_ETIMEDOUT); FJ_NAME(FI_ECONNREFUSED); FJ_NAME(FI_EHOSTDOWN);
    FJ_NAME(FI_EHOSTUNREACH); FJ_NAME(FI_EALREADY); FJ_NAME(FI_EINPROGRESS); FJ_NAME(FI_EREMOTEIO);
    FJ_NAME(FI_ECANCELED); FJ_NAME(FI_EKEYREJECTED); FJ_NAME(FI_EOTHER); FJ_NAME(FI_ETOOSMALL);
    FJ_NAME(FI_EOPBADSTATE); FJ_NAME(FI_EAVAIL); FJ_NAME(FI_EBADFLAGS); FJ_NAME(FI_ENOEQ);
    FJ_NAME(FI_EDOMAIN); FJ_NAME(FI_ENOCQ); FJ_NAME(FI_ECRC); FJ_NAME(FI_ETRUNC); FJ_NAME(FI_ENOKEY);
    FJ_NAME(FI_ENOAV); FJ_NAME(FI_EOVERRUN); FJ_NAME(FI_ENORX);
#undef FJ_NAME
    default: return NULL;
    }
}
