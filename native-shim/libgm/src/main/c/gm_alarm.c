/*
 * gm_alarm.c: GM's one-shot alarms (gm-libfabric.md section 1.3, GM 1 manual chapter 11). Armed alarms wait in
 * the port's list sorted by deadline; progress moves the expired ones to the fired list; gm_receive returns one
 * GM_ALARM_EVENT per fired alarm and gm_unknown runs its callback. Setting an armed (or fired, not yet handled)
 * alarm re-arms it; cancelling removes it from whichever list holds it. The alarm's storage is the client's.
 */
#include "gm_internal.h"

enum { ALARM_IDLE = 0, ALARM_ARMED = 1, ALARM_FIRED = 2 };

static void unlink_from(gm_alarm_t **head, gm_alarm_t *alarm) {
    for (gm_alarm_t **at = head; *at != NULL; at = &(*at)->_next) {
        if (*at == alarm) {
            *at = alarm->_next;
            alarm->_next = NULL;
            return;
        }
    }
}

/* Takes alarm off the armed or fired list (under the lock). */
static void disarm(struct gm_port *p, gm_alarm_t *alarm) {
    if (alarm->_state == ALARM_ARMED) {
        unlink_from(&p->alarms, alarm);
    } else if (alarm->_state == ALARM_FIRED) {
        unlink_from(&p->fired_head, alarm);
        p->fired_tail = NULL;
        for (gm_alarm_t *a = p->fired_head; a != NULL; a = a->_next) {
            p->fired_tail = a;
        }
    }
    alarm->_state = ALARM_IDLE;
}

GMI_API void gm_initialize_alarm(gm_alarm_t *alarm) {
    if (alarm != NULL) {
        *alarm = (gm_alarm_t) {0};
    }
}

GMI_API void gm_set_alarm(struct gm_port *p, gm_alarm_t *alarm, gm_u64_t usecs, void (*callback)(void *),
                          void *context) {
    if (p == NULL || alarm == NULL) {
        return;
    }
    pthread_mutex_lock(&p->lock);
    if (alarm->_port != NULL && alarm->_port != p) {
        pthread_mutex_unlock(&p->lock);
        return; /* armed on another port: cancel it there first */
    }
    disarm(p, alarm);
    alarm->_port = p;
    alarm->_callback = callback;
    alarm->_context = context;
    alarm->_deadline_ns = gmi_now_ns() + usecs * 1000u;
    alarm->_state = ALARM_ARMED;
    gm_alarm_t **at = &p->alarms;
    while (*at != NULL && (*at)->_deadline_ns <= alarm->_deadline_ns) {
        at = &(*at)->_next;
    }
    alarm->_next = *at;
    *at = alarm;
    pthread_mutex_unlock(&p->lock);
    gmx_wakeup(p); /* a blocking receive may be asleep past the new deadline */
}

GMI_API void gm_cancel_alarm(gm_alarm_t *alarm) {
    if (alarm == NULL || alarm->_port == NULL) {
        return;
    }
    struct gm_port *p = alarm->_port;
    pthread_mutex_lock(&p->lock);
    disarm(p, alarm);
    alarm->_port = NULL;
    pthread_mutex_unlock(&p->lock);
}

void gmi_alarms_expire(struct gm_port *p, uint64_t now) {
    while (p->alarms != NULL && p->alarms->_deadline_ns <= now) {
        gm_alarm_t *alarm = p->alarms;
        p->alarms = alarm->_next;
        alarm->_next = NULL;
        alarm->_state = ALARM_FIRED;
        if (p->fired_tail != NULL) {
            p->fired_tail->_next = alarm;
        } else {
            p->fired_head = alarm;
        }
        p->fired_tail = alarm;
    }
}

bool gmi_alarm_pop(struct gm_port *p, gm_alarm_t **alarm) {
    gm_alarm_t *a = p->fired_head;
    if (a == NULL) {
        return false;
    }
    p->fired_head = a->_next;
    if (p->fired_head == NULL) {
        p->fired_tail = NULL;
    }
    a->_next = NULL;
    a->_state = ALARM_IDLE;
    a->_port = NULL;
    *alarm = a;
    return true;
}

uint64_t gmi_next_deadline(struct gm_port *p) {
    return p->alarms != NULL ? p->alarms->_deadline_ns : 0;
}

void gmi_alarms_drop(struct gm_port *p) {
    while (p->alarms != NULL) {
        gm_alarm_t *a = p->alarms;
        p->alarms = a->_next;
        *a = (gm_alarm_t) {0};
    }
    while (p->fired_head != NULL) {
        gm_alarm_t *a = p->fired_head;
        p->fired_head = a->_next;
        *a = (gm_alarm_t) {0};
    }
    p->fired_tail = NULL;
}
