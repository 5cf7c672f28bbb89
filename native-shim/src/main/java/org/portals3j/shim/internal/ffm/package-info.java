/**
 * Every FFM binding of the native shim: the layouts of the structs {@code portals3.h} shares with the
 * engine ({@link org.portals3j.shim.internal.ffm.CStructs}), the table of upcall stubs and its layout
 * ({@link org.portals3j.shim.internal.ffm.ShimTable}), the upcall targets
 * ({@code PortalsUpcalls}, {@code RuntimeUpcalls}) and the one mapping between the header's numbers and
 * the Java API ({@link org.portals3j.shim.internal.ffm.CConstants}). Written by hand (no jextract here);
 * {@code src/test/c/layout_check.c} and {@code LayoutTest} check them against the C compiler.
 */
package org.portals3j.shim.internal.ffm;
