package io.hasp.bench;

import java.util.List;

/** The read/write lock rows; empty until lock-rw's lock is on main. */
final class ReadWriteRows {

    private ReadWriteRows() {
    }

    static List<Row> rows() {
        return List.of();
    }
}
