package dev.layout.bench;

import java.io.Serializable;

/** The three graphs of issue 10's AutoLink benchmark, as plain classes every codec can handle. */
public final class GraphShapes {
    private GraphShapes() {}

    public static final class TreeNode implements Serializable {
        private static final long serialVersionUID = 1L;
        public int value;
        public TreeNode left;
        public TreeNode right;
    }

    public static final class ListNode implements Serializable {
        private static final long serialVersionUID = 1L;
        public long value;
        public ListNode prev;
        public ListNode next;
    }

    public static final class GridNode implements Serializable {
        private static final long serialVersionUID = 1L;
        public int x;
        public int y;
        public GridNode north;
        public GridNode south;
        public GridNode east;
        public GridNode west;
    }

    public enum Shape {
        TREE,
        LIST,
        GRID
    }

    public static Object build(Shape s, int n) {
        return switch (s) {
            case TREE -> tree(n);
            case LIST -> list(n);
            case GRID -> grid((int) Math.round(Math.sqrt(n)));
        };
    }

    /** A complete binary tree of {@code n} nodes (heap order). */
    public static TreeNode tree(int n) {
        TreeNode[] t = new TreeNode[n];
        for (int i = 0; i < n; i++) {
            t[i] = new TreeNode();
            t[i].value = i;
        }
        for (int i = 0; i < n; i++) {
            if (2 * i + 1 < n) {
                t[i].left = t[2 * i + 1];
            }
            if (2 * i + 2 < n) {
                t[i].right = t[2 * i + 2];
            }
        }
        return t[0];
    }

    /** A doubly-linked cyclic list of {@code n} nodes. */
    public static ListNode list(int n) {
        ListNode[] l = new ListNode[n];
        for (int i = 0; i < n; i++) {
            l[i] = new ListNode();
            l[i].value = i * 31L;
        }
        for (int i = 0; i < n; i++) {
            l[i].next = l[(i + 1) % n];
            l[i].prev = l[(i + n - 1) % n];
        }
        return l[0];
    }

    /** A {@code side x side} grid graph, 4 references per node (null at the border). */
    public static GridNode grid(int side) {
        GridNode[][] g = new GridNode[side][side];
        for (int y = 0; y < side; y++) {
            for (int x = 0; x < side; x++) {
                GridNode v = g[y][x] = new GridNode();
                v.x = x;
                v.y = y;
            }
        }
        for (int y = 0; y < side; y++) {
            for (int x = 0; x < side; x++) {
                GridNode v = g[y][x];
                v.north = y > 0 ? g[y - 1][x] : null;
                v.south = y + 1 < side ? g[y + 1][x] : null;
                v.west = x > 0 ? g[y][x - 1] : null;
                v.east = x + 1 < side ? g[y][x + 1] : null;
            }
        }
        return g[0][0];
    }

    /**
     * Checks that {@code copy} is a copy of {@code original} (a graph {@link #build} made): same
     * values, same links, same cycles; an {@link AssertionError} naming the first difference. Node
     * values are unique in every shape, so equal values at equal positions also mean no two
     * positions of the copy share a node.
     */
    public static void verify(Shape s, Object original, Object copy) {
        switch (s) {
            case TREE -> verifyTree((TreeNode) original, (TreeNode) copy);
            case LIST -> verifyList((ListNode) original, (ListNode) copy);
            case GRID -> verifyGrid((GridNode) original, (GridNode) copy);
        }
    }

    private static void verifyTree(TreeNode a, TreeNode b) {
        java.util.ArrayDeque<TreeNode> q = new java.util.ArrayDeque<>();
        q.add(a);
        q.add(b);
        while (!q.isEmpty()) {
            TreeNode x = q.poll();
            TreeNode y = q.poll();
            if (x == y
                    || x.value != y.value
                    || (x.left == null) != (y.left == null)
                    || (x.right == null) != (y.right == null)) {
                throw new AssertionError("tree copy differs at node " + x.value);
            }
            if (x.left != null) {
                q.add(x.left);
                q.add(y.left);
            }
            if (x.right != null) {
                q.add(x.right);
                q.add(y.right);
            }
        }
    }

    private static void verifyList(ListNode a, ListNode b) {
        ListNode x = a;
        ListNode y = b;
        do {
            if (x == y || x.value != y.value || y.next.prev != y || y.prev.next != y) {
                throw new AssertionError("list copy differs at value " + x.value);
            }
            x = x.next;
            y = y.next;
            if ((x == a) != (y == b)) {
                throw new AssertionError("list copy: cycle length differs (at value " + x.value + ")");
            }
        } while (x != a);
    }

    private static void verifyGrid(GridNode a, GridNode b) {
        GridNode ra = a;
        GridNode rb = b;
        while (ra != null && rb != null) {
            GridNode x = ra;
            GridNode y = rb;
            while (x != null && y != null) {
                if (x == y
                        || x.x != y.x
                        || x.y != y.y
                        || (x.north == null) != (y.north == null)
                        || (x.west == null) != (y.west == null)
                        || (x.east == null) != (y.east == null)
                        || (x.south == null) != (y.south == null)
                        || (y.east != null && y.east.west != y)
                        || (y.south != null && y.south.north != y)) {
                    throw new AssertionError("grid copy differs at (" + x.x + ", " + x.y + ")");
                }
                x = x.east;
                y = y.east;
            }
            ra = ra.south;
            rb = rb.south;
        }
        if (ra != rb) {
            throw new AssertionError("grid copy: row count differs");
        }
    }

    public static Class<?>[] classes() {
        return new Class<?>[] {TreeNode.class, ListNode.class, GridNode.class};
    }
}
