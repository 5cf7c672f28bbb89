package org.portals3j.runtime;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class SlurmHostListTest {

    @Test
    void aSingleHostIsItself() {
        assertThat(SlurmHostList.first("vm")).isEqualTo("vm");
        assertThat(SlurmHostList.first(" node-7.cluster ")).isEqualTo("node-7.cluster");
    }

    @Test
    void theFirstEntryOfAListIsTaken() {
        assertThat(SlurmHostList.first("login1,node[01-04]")).isEqualTo("login1");
    }

    @Test
    void aRangeGivesItsFirstNumberWithItsZeroPadding() {
        assertThat(SlurmHostList.first("node[007-012,20],gpu1")).isEqualTo("node007");
        assertThat(SlurmHostList.first("rack[3,5]-n[10-11]")).isEqualTo("rack3-n10");
        assertThat(SlurmHostList.first("n[2-4]a")).isEqualTo("n2a");
    }

    @Test
    void somethingThatIsNoHostListIsRefusedSayingWhy() {
        assertThatThrownBy(() -> SlurmHostList.first("node[01-04")).isInstanceOf(IllegalArgumentException.class)
                .hasMessage("'node[01-04' is not a Slurm host list: '[' is not closed");
        assertThatThrownBy(() -> SlurmHostList.first("node[a-b]")).isInstanceOf(IllegalArgumentException.class)
                .hasMessage("'node[a-b]' is not a Slurm host list: '[a-b]' does not start with a number");
        assertThatThrownBy(() -> SlurmHostList.first(",x")).isInstanceOf(IllegalArgumentException.class)
                .hasMessage("',x' is not a Slurm host list: it names no host first");
        assertThatThrownBy(() -> SlurmHostList.first("n]")).isInstanceOf(IllegalArgumentException.class)
                .hasMessage("'n]' is not a Slurm host list: ']' without '['");
    }
}
