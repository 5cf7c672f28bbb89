package org.portals3j.transport;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;
import java.util.UUID;
import org.portals3j.transport.internal.OsUser;

/**
 * A job: an id unique among running jobs, and the table of its ranks.
 *
 * <p>{@link #local(int)} builds the table the runtime uses by default: rank {@code r} gets node id
 * {@code r}, process id {@link #DEFAULT_PID} and the operating-system user id of this process, and
 * the job a fresh random {@link JobKey}.
 */
public final class Job {
    /** The process id every rank starts with unless the job says otherwise. */
    public static final int DEFAULT_PID = 0;

    private final String id;
    private final PeerTable peers;
    private final JobKey key;

    public Job(String id, PeerTable peers, JobKey key) {
        this.id = Objects.requireNonNull(id, "id");
        this.peers = Objects.requireNonNull(peers, "peers");
        this.key = Objects.requireNonNull(key, "key");
        if (peers.size() < 1) {
            throw new IllegalArgumentException("a job has at least one rank");
        }
    }

    /** A job of {@code size} ranks with a fresh id and the default peer table. */
    public static Job local(int size) {
        return builder(size).build();
    }

    public static Builder builder(int size) {
        return new Builder(size);
    }

    public String id() {
        return id;
    }

    public int size() {
        return peers.size();
    }

    public PeerTable peers() {
        return peers;
    }

    /** The secret the job's ranks share (see {@link JobKey}). */
    public JobKey key() {
        return key;
    }

    @Override
    public String toString() {
        return "Job[" + id + ", " + size() + " ranks]";
    }

    /** Builds a job table; ranks may be given their own uid (the conformance kit tests access control with it). */
    public static final class Builder {
        private final int size;
        private final int[] uids;
        private final int[] pids;
        private String id = "job-" + UUID.randomUUID();
        private JobKey key = JobKey.random();

        private Builder(int size) {
            if (size < 1) {
                throw new IllegalArgumentException("a job has at least one rank, not " + size);
            }
            this.size = size;
            this.uids = new int[size];
            this.pids = new int[size];
            Arrays.fill(uids, OsUser.uid());
            Arrays.fill(pids, DEFAULT_PID);
        }

        public Builder id(String jobId) {
            this.id = Objects.requireNonNull(jobId, "jobId");
            return this;
        }

        /** The job's shared secret; a fresh random key by default. */
        public Builder key(JobKey jobKey) {
            this.key = Objects.requireNonNull(jobKey, "jobKey");
            return this;
        }

        public Builder uid(int rank, int uid) {
            uids[rank] = uid;
            return this;
        }

        public Builder pid(int rank, int pid) {
            pids[rank] = pid;
            return this;
        }

        public Job build() {
            List<JobMember> members = new ArrayList<>(size);
            for (int r = 0; r < size; r++) {
                members.add(new JobMember(r, r, pids[r], uids[r]));
            }
            return new Job(id, new PeerTable(members), key);
        }
    }
}
