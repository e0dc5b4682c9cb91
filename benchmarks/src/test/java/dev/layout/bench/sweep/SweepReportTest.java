package dev.layout.bench.sweep;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SweepReportTest {
    private static final SweepPoint A = new SweepPoint(SweepPoint.Shape.VECTOR, 4, 12, 16, 1000, 1);
    private static final SweepPoint B = new SweepPoint(SweepPoint.Shape.INDEXED_BLOCK, 8, 64, 65536, 16, 4);

    private static List<SweepReport.Row> rows(double mpichA, double mpichB) {
        return List.of(
                new SweepReport.Row(A, "heap", "pack", 1000, "words", 1500, 1.5, 0, mpichA),
                new SweepReport.Row(B, "offheap", "unpack", 1000, "copy", 900, 0.9, 0, mpichB));
    }

    @Test
    void summaryNamesTheLowestPointOfEachRatio() {
        assertEquals(
                List.of(
                        "min engine/mpich: 0.75 (vector w12 s16 e4 12000B heap pack)",
                        "min engine/hand: 0.90 (indexed_block w64 s65536 e8 4KiB offheap unpack)"),
                SweepReport.summary(rows(2000, 300)));
        assertEquals(
                List.of(
                        "min engine/mpich: not measured (run with --native)",
                        "min engine/hand: 0.90 (indexed_block w64 s65536 e8 4KiB offheap unpack)"),
                SweepReport.summary(rows(Double.NaN, Double.NaN)));
    }

    @Test
    void tableLinesHaveTheColumnsOfTheHeader() {
        SweepReport.Row r = rows(2000, 300).get(0);
        String line = SweepReport.format(r, true);
        // "hand MB/s" and "mpich MB/s" are two words in the header, one number in a line
        assertEquals(
                SweepReport.header(true).trim().split("\\s+").length - 2,
                line.trim().split("\\s+").length,
                line);
        assertTrue(line.startsWith("vector"), line);
        assertTrue(line.endsWith("0.75"), line);
        assertTrue(SweepReport.format(r, false).endsWith("1.50"), line);
    }

    @Test
    void rowsSurviveTheTripThroughAChildJvm() {
        for (SweepReport.Row r : rows(2000, Double.NaN)) {
            assertEquals(r.toString(), SweepReport.parse(SweepReport.tsv(r)).toString());
        }
    }

    @Test
    void writesTheMarkdownAndTheChart(@TempDir Path dir) throws Exception {
        SweepReport.write(dir, rows(2000, 300), "bin/layout bench sweep --quick --native", "MPICH Version: 4.0.2", 1);
        String md = Files.readString(dir.resolve(SweepReport.MARKDOWN));
        assertTrue(md.contains("min engine/mpich: 0.75 (vector w12 s16 e4 12000B heap pack)"), md);
        assertTrue(md.contains("| indexed_block | 8 | 64 | 65536 | 4096 | offheap | unpack |"), md);
        assertTrue(md.contains("MPICH Version: 4.0.2"), md);
        assertTrue(Files.size(dir.resolve(SweepReport.CHART)) > 1000);
    }

    @Test
    void combineTakesMediansOverRoundsAndJoinsMpichByLayoutAndDirection() {
        List<SweepGrid.Item> items = List.of(
                new SweepGrid.Item(A, dev.layout.bench.memory.Target.HEAP, true),
                new SweepGrid.Item(A, dev.layout.bench.memory.Target.HEAP, false));
        List<SweepReport.Row> r1 = List.of(
                new SweepReport.Row(A, "heap", "pack", 100, "words", 200, 2.0, 0, Double.NaN),
                new SweepReport.Row(A, "heap", "unpack", 100, "words", 50, 0.5, 0, Double.NaN));
        List<SweepReport.Row> r2 = List.of(
                new SweepReport.Row(A, "heap", "pack", 100, "words", 300, 3.0, 0, Double.NaN),
                new SweepReport.Row(A, "heap", "unpack", 100, "words", 70, 0.7, 0, Double.NaN));
        List<SweepReport.Row> c = SweepCommand.combine(
                items,
                List.of(A),
                List.of(r1, r2),
                List.of(List.of(new NativeSweep.Speeds(100, 10)), List.of(new NativeSweep.Speeds(300, 30))));
        assertEquals(2.5, c.get(0).ratio(), 1e-9);
        assertEquals(200, c.get(0).mpich(), 1e-9);
        assertEquals(20, c.get(1).mpich(), 1e-9);
        assertEquals(0.6, c.get(1).ratio(), 1e-9);
    }
}
