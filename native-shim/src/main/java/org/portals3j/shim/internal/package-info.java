/**
 * The C process's one Portals library, the dialect its first {@code PtlInit} chose, and its place in the
 * job (internal to the native shim).
 */
package org.portals3j.shim.internal;
