package dev.layout.autolink;

import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Deque;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Random;

/** Test node types, random graph builders and an isomorphism check. */
final class Graphs {
    private Graphs() {}

    static final class Node {
        int id;
        String label;
        Node left;
        Node right;
    }

    static final class DNode {
        long value;
        DNode prev;
        DNode next;
    }

    static final class Vertex {
        boolean flag;
        byte b;
        short s;
        char c;
        int id;
        long l;
        float f;
        double weight;
        byte[] blob;
        Vertex[] edges;
        List<Vertex> more;
        Node payload;
    }

    record Bag(String name, List<Node> items, Node[] arr) {}

    static final class Holder {
        Bag bag;
        Holder self;
    }

    static TypeRegistry registry() {
        return TypeRegistry.of(Node.class, DNode.class, Vertex.class, Bag.class, Holder.class);
    }

    enum Shape {
        EMPTY,
        SINGLE,
        TREE,
        DAG,
        CYCLIC_LIST,
        MESH,
        BAG
    }

    static Object build(Shape shape, int n, long seed) {
        Random r = new Random(seed);
        switch (shape) {
            case EMPTY -> {
                return null;
            }
            case SINGLE -> {
                Node x = new Node();
                x.id = 42;
                x.label = r.nextBoolean() ? null : "only";
                x.left = r.nextBoolean() ? x : null;
                return x;
            }
            case TREE, DAG -> {
                List<Node> all = new ArrayList<>();
                Node root = node(r, 0);
                all.add(root);
                for (int i = 1; i < Math.max(1, n); i++) {
                    Node parent = all.get(r.nextInt(all.size()));
                    Node child = node(r, i);
                    if (parent.left == null) {
                        parent.left = child;
                    } else if (parent.right == null) {
                        parent.right = child;
                    }
                    all.add(child);
                    if (shape == Shape.DAG && r.nextInt(3) == 0) {
                        Node a = all.get(r.nextInt(all.size()));
                        Node b = all.get(r.nextInt(all.size()));
                        if (a.right == null) {
                            a.right = b; // sharing; may also close a cycle, which is fine
                        }
                    }
                }
                return root;
            }
            case CYCLIC_LIST -> {
                int m = Math.max(1, n);
                DNode[] d = new DNode[m];
                for (int i = 0; i < m; i++) {
                    d[i] = new DNode();
                    d[i].value = r.nextLong();
                }
                for (int i = 0; i < m; i++) {
                    d[i].next = d[(i + 1) % m];
                    d[i].prev = d[(i + m - 1) % m];
                }
                return d[r.nextInt(m)];
            }
            case MESH -> {
                int m = Math.max(1, n);
                Vertex[] v = new Vertex[m];
                for (int i = 0; i < m; i++) {
                    Vertex x = v[i] = new Vertex();
                    x.flag = r.nextBoolean();
                    x.b = (byte) r.nextInt();
                    x.s = (short) r.nextInt();
                    x.c = (char) r.nextInt();
                    x.id = i;
                    x.l = r.nextLong();
                    x.f = r.nextFloat();
                    x.weight = r.nextGaussian();
                    x.blob = r.nextInt(4) == 0 ? null : new byte[r.nextInt(5)];
                    if (x.blob != null) {
                        r.nextBytes(x.blob);
                    }
                    x.payload = r.nextInt(3) == 0 ? node(r, i) : null;
                }
                for (Vertex x : v) {
                    int k = r.nextInt(5) - 1;
                    if (k >= 0) {
                        x.edges = new Vertex[k];
                        for (int j = 0; j < k; j++) {
                            x.edges[j] = r.nextInt(6) == 0 ? null : v[r.nextInt(m)];
                        }
                    }
                    if (r.nextBoolean()) {
                        x.more = new ArrayList<>();
                        for (int j = r.nextInt(3); j > 0; j--) {
                            x.more.add(v[r.nextInt(m)]);
                        }
                    }
                }
                return v[0];
            }
            default -> {
                List<Node> items = new ArrayList<>();
                for (int i = 0; i < n; i++) {
                    items.add(r.nextInt(4) == 0 || items.isEmpty() ? node(r, i) : items.get(r.nextInt(items.size())));
                }
                Node[] arr = r.nextBoolean() ? null : items.toArray(new Node[0]);
                Holder h = new Holder();
                h.bag = new Bag(r.nextBoolean() ? "bag" : null, items, arr);
                h.self = h;
                return h;
            }
        }
    }

    private static Node node(Random r, int id) {
        Node x = new Node();
        x.id = id;
        x.label = r.nextInt(3) == 0 ? null : "n" + id + "\u00e9";
        return x;
    }

    /** Asserts that {@code a} and {@code b} are isomorphic graphs (a bijection that preserves values and edges); returns the node count. */
    static int assertIsomorphic(Object a, Object b) {
        Map<Object, Object> ab = new IdentityHashMap<>();
        Map<Object, Object> ba = new IdentityHashMap<>();
        Deque<Object[]> work = new ArrayDeque<>();
        pair(a, b, ab, ba, work);
        while (!work.isEmpty()) {
            Object[] p = work.poll();
            Object x = p[0];
            Object y = p[1];
            for (Class<?> k = x.getClass(); k != Object.class && k != Record.class; k = k.getSuperclass()) {
                for (Field f : k.getDeclaredFields()) {
                    if (Modifier.isStatic(f.getModifiers())) {
                        continue;
                    }
                    f.setAccessible(true);
                    Object fx;
                    Object fy;
                    try {
                        fx = f.get(x);
                        fy = f.get(y);
                    } catch (IllegalAccessException e) {
                        throw new AssertionError(e);
                    }
                    Class<?> t = f.getType();
                    if (t.isPrimitive() || t == String.class || t == byte[].class) {
                        if (!Objects.deepEquals(fx, fy)) {
                            throw new AssertionError(
                                    "field " + k.getSimpleName() + "." + f.getName() + ": " + fx + " vs " + fy);
                        }
                    } else if (t.isArray()) {
                        if ((fx == null) != (fy == null)
                                || (fx != null && ((Object[]) fx).length != ((Object[]) fy).length)) {
                            throw new AssertionError("array " + f.getName() + " differs");
                        }
                        if (fx != null) {
                            for (int i = 0; i < ((Object[]) fx).length; i++) {
                                pair(((Object[]) fx)[i], ((Object[]) fy)[i], ab, ba, work);
                            }
                        }
                    } else if (t == List.class) {
                        List<?> lx = (List<?>) fx;
                        List<?> ly = (List<?>) fy;
                        if ((lx == null) != (ly == null) || (lx != null && lx.size() != ly.size())) {
                            throw new AssertionError("list " + f.getName() + " differs");
                        }
                        if (lx != null) {
                            for (int i = 0; i < lx.size(); i++) {
                                pair(lx.get(i), ly.get(i), ab, ba, work);
                            }
                        }
                    } else {
                        pair(fx, fy, ab, ba, work);
                    }
                }
            }
        }
        return ab.size();
    }

    private static void pair(Object x, Object y, Map<Object, Object> ab, Map<Object, Object> ba, Deque<Object[]> work) {
        if (x == null || y == null) {
            if (x != y) {
                throw new AssertionError("null vs non-null: " + x + " / " + y);
            }
            return;
        }
        if (x == y) {
            throw new AssertionError("decoded graph shares a node with the original");
        }
        if (x.getClass() != y.getClass()) {
            throw new AssertionError("class " + x.getClass() + " vs " + y.getClass());
        }
        Object mx = ab.get(x);
        Object my = ba.get(y);
        if (mx == null && my == null) {
            ab.put(x, y);
            ba.put(y, x);
            work.add(new Object[] {x, y});
        } else if (mx != y || my != x) {
            throw new AssertionError("sharing differs at " + x.getClass().getSimpleName());
        }
    }

    static int[] unused() {
        return Arrays.copyOf(new int[0], 0);
    }
}
