/**
 * Every FFM binding of the native shim: the layouts of the structs {@code portals3.h} shares with the
 * engine, for Portals 3.2 ({@link org.portals3j.shim.internal.ffm.CStructs}) and for the 3.3 dialect
 * ({@link org.portals3j.shim.internal.ffm.CStructs33}), the table of upcall stubs and its layout
 * ({@link org.portals3j.shim.internal.ffm.ShimTable}), the upcall targets ({@code SharedUpcalls} for the
 * functions both dialects share, bound to a {@code DialectBinding} per dialect; {@code PortalsUpcalls} and
 * {@code Portals33Upcalls} for each dialect's own forms; {@code RuntimeUpcalls}), the one downcall
 * ({@code NativeEventHandler}: a
 * program's 3.3 event handler) and the one mapping between the header's numbers and the Java API
 * ({@link org.portals3j.shim.internal.ffm.CConstants}). Written by hand (no jextract here);
 * {@code src/test/c/layout_check.c}, {@code layout_check33.c} and {@code LayoutTest} check them against
 * the C compiler.
 */
package org.portals3j.shim.internal.ffm;
