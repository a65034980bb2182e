package org.rivermonitor.db;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import javax.sql.DataSource;
import org.rivermonitor.Reading;

/**
 * The water-level store. One table, portable SQL that runs unchanged on H2 and PostgreSQL.
 * Timestamps are epoch milliseconds (BIGINT) to avoid time-zone differences between databases.
 */
public final class Database implements AutoCloseable {

    static final String[] SCHEMA = {
        "CREATE TABLE IF NOT EXISTS water_level ("
                + " river_id INTEGER NOT NULL,"
                + " ts BIGINT NOT NULL,"
                + " level_m DOUBLE PRECISION NOT NULL)",
        "CREATE INDEX IF NOT EXISTS water_level_river_ts ON water_level (river_id, ts)"
    };

    private static final String INSERT = "INSERT INTO water_level (river_id, ts, level_m) VALUES (?, ?, ?)";

    private final HikariDataSource dataSource;

    public Database(String jdbcUrl, String user, String password, int poolSize) {
        HikariConfig config = new HikariConfig();
        config.setPoolName("river-db");
        config.setJdbcUrl(jdbcUrl);
        if (user != null) {
            config.setUsername(user);
        }
        if (password != null) {
            config.setPassword(password);
        }
        config.setMaximumPoolSize(poolSize);
        config.setMinimumIdle(Math.min(2, poolSize));
        // Fail fast when the database is down: a chart request should get its 503 quickly,
        // and the collector should not hang its period on the pool.
        config.setConnectionTimeout(2_000);
        config.setValidationTimeout(1_000);
        if (jdbcUrl.startsWith("jdbc:postgresql:")) {
            config.addDataSourceProperty("reWriteBatchedInserts", "true");
            config.addDataSourceProperty("connectTimeout", "2");
            config.addDataSourceProperty("socketTimeout", "30");
        }
        this.dataSource = new HikariDataSource(config);
    }

    public DataSource dataSource() {
        return dataSource;
    }

    public void createSchema() throws SQLException {
        try (Connection c = dataSource.getConnection(); Statement s = c.createStatement()) {
            for (String sql : SCHEMA) {
                s.execute(sql);
            }
        }
    }

    /** Inserts the readings in one transaction, in JDBC batches. */
    public void insert(List<Reading> readings) throws SQLException {
        if (readings.isEmpty()) {
            return;
        }
        try (Connection c = dataSource.getConnection()) {
            boolean auto = c.getAutoCommit();
            c.setAutoCommit(false);
            try (PreparedStatement ps = c.prepareStatement(INSERT)) {
                int n = 0;
                for (Reading r : readings) {
                    ps.setInt(1, r.riverId());
                    ps.setLong(2, r.ts());
                    ps.setDouble(3, r.levelM());
                    ps.addBatch();
                    if (++n % 5000 == 0) {
                        ps.executeBatch();
                    }
                }
                ps.executeBatch();
                c.commit();
            } catch (SQLException | RuntimeException e) {
                c.rollback();
                throw e;
            } finally {
                c.setAutoCommit(auto);
            }
        }
    }

    /** The newest timestamp stored for the river, or -1 when it has none. */
    public long latestTs(int riverId) throws SQLException {
        try (Connection c = dataSource.getConnection();
             PreparedStatement ps = c.prepareStatement("SELECT MAX(ts) FROM water_level WHERE river_id = ?")) {
            ps.setInt(1, riverId);
            try (ResultSet rs = ps.executeQuery()) {
                rs.next();
                long v = rs.getLong(1);
                return rs.wasNull() ? -1 : v;
            }
        }
    }

    public long count(int riverId) throws SQLException {
        try (Connection c = dataSource.getConnection();
             PreparedStatement ps = c.prepareStatement("SELECT COUNT(*) FROM water_level WHERE river_id = ?")) {
            ps.setInt(1, riverId);
            try (ResultSet rs = ps.executeQuery()) {
                rs.next();
                return rs.getLong(1);
            }
        }
    }

    public long countAll() throws SQLException {
        try (Connection c = dataSource.getConnection();
             Statement s = c.createStatement();
             ResultSet rs = s.executeQuery("SELECT COUNT(*) FROM water_level")) {
            rs.next();
            return rs.getLong(1);
        }
    }

    /** The river's readings with fromMs &lt;= ts &lt;= toMs, oldest first. */
    public Series window(int riverId, long fromMs, long toMs) throws SQLException {
        try (Connection c = dataSource.getConnection();
             PreparedStatement ps = c.prepareStatement(
                     "SELECT ts, level_m FROM water_level WHERE river_id = ? AND ts >= ? AND ts <= ? ORDER BY ts")) {
            ps.setInt(1, riverId);
            ps.setLong(2, fromMs);
            ps.setLong(3, toMs);
            ps.setFetchSize(2000);
            try (ResultSet rs = ps.executeQuery()) {
                Series.Builder b = new Series.Builder();
                while (rs.next()) {
                    b.add(rs.getLong(1), rs.getDouble(2));
                }
                return b.build();
            }
        }
    }

    @Override
    public void close() {
        dataSource.close();
    }
}
