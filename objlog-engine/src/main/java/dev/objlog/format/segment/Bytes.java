package dev.objlog.format.segment;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;

/** Big-endian field access. Callers check bounds first; these never see hostile offsets. */
final class Bytes {
  private static final VarHandle I64 =
      MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.BIG_ENDIAN);
  private static final VarHandle I32 =
      MethodHandles.byteArrayViewVarHandle(int[].class, ByteOrder.BIG_ENDIAN);
  private static final VarHandle I16 =
      MethodHandles.byteArrayViewVarHandle(short[].class, ByteOrder.BIG_ENDIAN);

  private Bytes() {}

  static long u64(byte[] b, int at) {
    return (long) I64.get(b, at);
  }

  static long u32(byte[] b, int at) {
    return ((int) I32.get(b, at)) & 0xFFFF_FFFFL;
  }

  static int i32(byte[] b, int at) {
    return (int) I32.get(b, at);
  }

  static int u16(byte[] b, int at) {
    return ((short) I16.get(b, at)) & 0xFFFF;
  }

  static void put64(byte[] b, int at, long v) {
    I64.set(b, at, v);
  }

  static void put32(byte[] b, int at, int v) {
    I32.set(b, at, v);
  }

  static void put16(byte[] b, int at, int v) {
    I16.set(b, at, (short) v);
  }

  static boolean allZero(byte[] b, int from, int to) {
    for (int i = from; i < to; i++) {
      if (b[i] != 0) {
        return false;
      }
    }
    return true;
  }

  static String hex64(long v) {
    return String.format("%016x", v);
  }
}
