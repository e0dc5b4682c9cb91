package dev.layout.dataloop;

import dev.layout.dataloop.kernel.MemoryAccess;
import dev.layout.dataloop.kernel.PlaneKernel;
import dev.layout.dataloop.kernel.WordKernel;
import java.util.IdentityHashMap;

/**
 * How a native pack or unpack runs the nodes of one dataloop tree between one pair of memory kinds
 * ({@link MemoryAccess#baseKinds}): each nest's cache-blocked order and each leaf's generated kernel
 * (word moves, planes, strips), or none where the generic loops run. Made once per segment and memory
 * kinds, at its first pack or unpack; the walk then only looks nodes up, so a steady-state operation
 * allocates nothing. The {@link Dataloop} stays a plain description; the generated classes are cached
 * by shape and kinds in the kernel package. Used by one segment, so no more thread-safe than it.
 */
final class Plan {
  /** Vector leaves shorter than this keep the strided loops (no generated class for a handful of blocks). */
  static final int MIN_STRIP_BLOCKS = 32;

  private final int kinds;
  private final Lookup<BlockedOrder> orders = new Lookup<>();
  private final Lookup<WordKernel> words = new Lookup<>();
  private final Lookup<PlaneKernel> planes = new Lookup<>();
  private final Lookup<PlaneKernel> strips = new Lookup<>();
  private final IdentityHashMap<Dataloop, Boolean> seen = new IdentityHashMap<>();

  Plan(Dataloop root, int kinds) {
    this.kinds = kinds;
    visit(root);
    seen.clear();
  }

  private void visit(Dataloop d) {
    if (d == null || seen.put(d, Boolean.TRUE) != null) {
      return;
    }
    if (d.leaf) {
      if (d.words != null) {
        put(words, d, WordKernel.of(d.words, d.wordLongs, d.wordInts, d.size, kinds));
      }
      if (d.kind == Dataloop.Kind.VECTOR && (d.blocklen == 4 || d.blocklen == 8 || d.blocklen == 16) && d.stride != d.blocklen
          && d.nblocks >= MIN_STRIP_BLOCKS) {
        // Exploits: the stride becomes a constant in the code, as in a hand loop over a strided array.
        put(strips, d, PlaneKernel.strip((int) d.blocklen, d.stride, kinds));
      }
      return;
    }
    put(orders, d, BlockedOrder.of(d, BlockedOrder.BUDGET));
    Dataloop r = d.child;
    if (d.kind == Dataloop.Kind.VECTOR && d.blocklen == 1 && r != null && r.leaf && r.kind == Dataloop.Kind.VECTOR && r.blocklen <= 16) {
      put(planes, d, PlaneKernel.of((int) r.blocklen, r.nblocks, r.stride, d.nblocks, d.stride, kinds));
    }
    if (d.children != null) {
      for (Dataloop c : d.children) {
        visit(c);
      }
    } else {
      visit(r);
    }
  }

  private static <V> void put(Lookup<V> lookup, Dataloop d, V v) {
    if (v != null) {
      lookup.map.put(d, v);
    }
  }

  /** Node to value; remembers the last lookup, since the walk asks about the same node many times in a row. */
  private static final class Lookup<V> {
    final IdentityHashMap<Dataloop, V> map = new IdentityHashMap<>();
    Dataloop last;
    V value;

    V get(Dataloop d) {
      if (d != last) {
        value = map.get(d);
        last = d;
      }
      return value;
    }
  }

  /** The cache-blocked order for whole instances of the nest {@code d}, or null (see {@link BlockedOrder}). */
  BlockedOrder order(Dataloop d) {
    return orders.get(d);
  }

  /** The generated loops for the word moves of the leaf {@code d}, or null (see {@link WordKernel}). */
  WordKernel words(Dataloop d) {
    return words.get(d);
  }

  /** The generated loops for planes of rows (the vector {@code d} of vector leaves, one per block), or null. */
  PlaneKernel plane(Dataloop d) {
    return planes.get(d);
  }

  /** The generated strip for the vector leaf {@code d} (see {@link PlaneKernel#strip}), or null. */
  PlaneKernel strip(Dataloop d) {
    return strips.get(d);
  }
}
