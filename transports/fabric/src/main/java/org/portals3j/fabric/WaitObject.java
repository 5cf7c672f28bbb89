package org.portals3j.fabric;

/** {@code enum fi_wait_obj} values a completion queue can be opened with. */
public enum WaitObject {
    /** {@code FI_WAIT_NONE}: poll only (every provider). */
    NONE(0),
    /** {@code FI_WAIT_UNSPEC}: the provider's choice. */
    UNSPEC(1),
    /** {@code FI_WAIT_FD}: a file descriptor to poll; shm refuses it with {@code FI_ENOSYS}. */
    FD(3);

    final int value;

    WaitObject(int value) {
        this.value = value;
    }
}
