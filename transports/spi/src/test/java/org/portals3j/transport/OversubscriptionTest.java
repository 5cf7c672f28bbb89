package org.portals3j.transport;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Map;
import java.util.Properties;
import org.junit.jupiter.api.Test;

class OversubscriptionTest {

    @Test
    void autoIsOversubscribedOnlyWhenTheRanksOnTheHostOutnumberItsCores() {
        assertThat(Oversubscription.AUTO.decide(4, 2)).as("4 ranks on 2 cores").isTrue();
        assertThat(Oversubscription.AUTO.decide(3, 2)).as("3 ranks on 2 cores").isTrue();
        assertThat(Oversubscription.AUTO.decide(2, 2)).as("2 ranks on 2 cores").isFalse();
        assertThat(Oversubscription.AUTO.decide(1, 2)).as("a singleton").isFalse();
        assertThat(Oversubscription.AUTO.decide(4, 8)).as("4 ranks on 8 cores").isFalse();
        assertThat(Oversubscription.AUTO.decide(2, 1)).as("2 ranks on 1 core").isTrue();
    }

    @Test
    void trueAndFalseOverrideWhateverTheCount() {
        assertThat(Oversubscription.TRUE.decide(2, 2)).isTrue();
        assertThat(Oversubscription.TRUE.decide(1, 64)).isTrue();
        assertThat(Oversubscription.FALSE.decide(4, 2)).isFalse();
        assertThat(Oversubscription.FALSE.decide(64, 1)).isFalse();
    }

    @Test
    void thePropertyWinsOverTheVariableWhichWinsOverOpenMpisParameter() {
        Properties none = new Properties();
        Properties off = new Properties();
        off.setProperty(Oversubscription.PROPERTY, "False");

        assertThat(Oversubscription.setting(Map.of(), none)).isEqualTo(Oversubscription.AUTO);
        assertThat(Oversubscription.setting(Map.of(Oversubscription.OPEN_MPI_VARIABLE, "1"), none))
                .isEqualTo(Oversubscription.TRUE);
        assertThat(Oversubscription.setting(Map.of(Oversubscription.OPEN_MPI_VARIABLE, "0"), none))
                .isEqualTo(Oversubscription.FALSE);
        assertThat(Oversubscription.setting(Map.of(Oversubscription.VARIABLE, " auto ",
                Oversubscription.OPEN_MPI_VARIABLE, "1"), none)).isEqualTo(Oversubscription.AUTO);
        assertThat(Oversubscription.setting(Map.of(Oversubscription.VARIABLE, "true"), off))
                .isEqualTo(Oversubscription.FALSE);
    }

    @Test
    void aValueThatIsNoSettingIsNamedWithTheAcceptedOnes() {
        Properties bad = new Properties();
        bad.setProperty(Oversubscription.PROPERTY, "yes");

        assertThatThrownBy(() -> Oversubscription.setting(Map.of(), bad))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining(Oversubscription.PROPERTY + "='yes'").hasMessageContaining("auto")
                .hasMessageContaining("true").hasMessageContaining("false");
        assertThatThrownBy(() -> Oversubscription.setting(Map.of(Oversubscription.OPEN_MPI_VARIABLE, "2"),
                new Properties()))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("is not 0 or 1");
    }
}
