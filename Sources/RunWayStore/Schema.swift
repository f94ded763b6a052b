/// The logbook's schema, one migration per version, each applied in its own transaction.
/// Every column has a default, so a row written by an older engine reads in a newer one (the
/// seed learned this with SwiftData migrations).
enum Schema {
    static let migrations: [String] = [
        // 1: flights, their derived tables, and the raw sensor log.
        """
        CREATE TABLE flights (
            id INTEGER PRIMARY KEY,
            status TEXT NOT NULL DEFAULT 'flying',
            target_pace REAL DEFAULT NULL,
            allowed_deviation REAL DEFAULT NULL,
            target_distance REAL DEFAULT NULL,
            start_time REAL NOT NULL DEFAULT 0,
            end_time REAL DEFAULT NULL,
            distance_m REAL NOT NULL DEFAULT 0,
            elapsed_s REAL NOT NULL DEFAULT 0,
            moving_s REAL NOT NULL DEFAULT 0,
            dropped_tail_m REAL NOT NULL DEFAULT 0,
            avg_heart_rate REAL DEFAULT NULL,
            avg_cadence REAL DEFAULT NULL,
            source TEXT NOT NULL DEFAULT 'live',
            replaces INTEGER DEFAULT NULL
        );
        CREATE INDEX flights_by_start ON flights(start_time);
        CREATE TABLE splits (
            flight_id INTEGER NOT NULL DEFAULT 0 REFERENCES flights(id) ON DELETE CASCADE,
            ord INTEGER NOT NULL DEFAULT 0,
            distance_m REAL NOT NULL DEFAULT 0,
            moving_s REAL NOT NULL DEFAULT 0,
            elapsed_s REAL NOT NULL DEFAULT 0,
            elapsed_end_s REAL NOT NULL DEFAULT 0,
            heart_rate REAL DEFAULT NULL,
            cadence REAL DEFAULT NULL,
            elevation_gain_m REAL NOT NULL DEFAULT 0,
            PRIMARY KEY (flight_id, ord)
        );
        CREATE TABLE samples (
            flight_id INTEGER NOT NULL DEFAULT 0 REFERENCES flights(id) ON DELETE CASCADE,
            elapsed_s REAL NOT NULL DEFAULT 0,
            distance_m REAL NOT NULL DEFAULT 0,
            pace REAL DEFAULT NULL,
            heart_rate REAL DEFAULT NULL,
            cadence REAL DEFAULT NULL,
            altitude REAL DEFAULT NULL,
            heading REAL DEFAULT NULL,
            paused INTEGER NOT NULL DEFAULT 0,
            PRIMARY KEY (flight_id, elapsed_s)
        );
        CREATE TABLE route_points (
            flight_id INTEGER NOT NULL DEFAULT 0 REFERENCES flights(id) ON DELETE CASCADE,
            simplified INTEGER NOT NULL DEFAULT 0,
            seq INTEGER NOT NULL DEFAULT 0,
            elapsed_s REAL NOT NULL DEFAULT 0,
            lat REAL NOT NULL DEFAULT 0,
            lon REAL NOT NULL DEFAULT 0,
            PRIMARY KEY (flight_id, simplified, seq)
        );
        CREATE TABLE alerts (
            flight_id INTEGER NOT NULL DEFAULT 0 REFERENCES flights(id) ON DELETE CASCADE,
            kind TEXT NOT NULL DEFAULT '',
            start_elapsed_s REAL NOT NULL DEFAULT 0,
            end_elapsed_s REAL DEFAULT NULL,
            lat REAL DEFAULT NULL,
            lon REAL DEFAULT NULL
        );
        CREATE TABLE raw_log (
            flight_id INTEGER NOT NULL DEFAULT 0 REFERENCES flights(id) ON DELETE CASCADE,
            seq INTEGER NOT NULL DEFAULT 0,
            until REAL NOT NULL DEFAULT 0,
            inputs TEXT NOT NULL DEFAULT '',
            PRIMARY KEY (flight_id, seq)
        ) WITHOUT ROWID;
        """,
        // 2: which engine computed a flight's derived data (reprocessing compares it), and a
        // per-flight index on alerts for the flight's details.
        """
        ALTER TABLE flights ADD COLUMN engine_version INTEGER NOT NULL DEFAULT 1;
        CREATE INDEX alerts_by_flight ON alerts(flight_id);
        """,
        // 3: the raw log as a rowid table. WITHOUT ROWID keeps whole rows (about 1 KB of raw
        // inputs each) in its interior pages too, so its tree was three levels deep at 1 200
        // rows, and a damaged page high in it hid every flight below; now interior pages hold
        // only row numbers and the (flight, seq) index holds small keys.
        """
        CREATE TABLE raw_log_v3 (
            flight_id INTEGER NOT NULL DEFAULT 0 REFERENCES flights(id) ON DELETE CASCADE,
            seq INTEGER NOT NULL DEFAULT 0,
            until REAL NOT NULL DEFAULT 0,
            inputs TEXT NOT NULL DEFAULT '',
            UNIQUE (flight_id, seq)
        );
        INSERT INTO raw_log_v3 (flight_id, seq, until, inputs)
            SELECT flight_id, seq, until, inputs FROM raw_log ORDER BY flight_id, seq;
        DROP TABLE raw_log;
        ALTER TABLE raw_log_v3 RENAME TO raw_log;
        """,
        // 4: a flight's pauses (exports turn them into timer stop/start events). A flight
        // stored before this has none here; readers fall back to its paused samples.
        """
        CREATE TABLE pauses (
            flight_id INTEGER NOT NULL DEFAULT 0 REFERENCES flights(id) ON DELETE CASCADE,
            start_elapsed_s REAL NOT NULL DEFAULT 0,
            end_elapsed_s REAL NOT NULL DEFAULT 0,
            reason TEXT NOT NULL DEFAULT 'manual'
        );
        CREATE INDEX pauses_by_flight ON pauses(flight_id);
        """,
        // 5: where a flight's elevation came from (NULL: no altitude source, so its gains are
        // missing, not 0), its descent and its range.
        """
        ALTER TABLE flights ADD COLUMN elevation_source TEXT DEFAULT NULL;
        ALTER TABLE flights ADD COLUMN elevation_loss_m REAL DEFAULT NULL;
        ALTER TABLE flights ADD COLUMN altitude_min_m REAL DEFAULT NULL;
        ALTER TABLE flights ADD COLUMN altitude_max_m REAL DEFAULT NULL;
        """,
        // 6: heart-rate zones. The flight's highest heart rate, its moving seconds in each of
        // zones 1…5, and the zones they were counted in (method, maximum, resting, each zone's
        // lower edge as a fraction); each split's highest heart rate. NULL: a flight stored
        // before (or without heart rate) has none, never 0.
        """
        ALTER TABLE flights ADD COLUMN max_heart_rate REAL DEFAULT NULL;
        ALTER TABLE flights ADD COLUMN zone_1_s REAL DEFAULT NULL;
        ALTER TABLE flights ADD COLUMN zone_2_s REAL DEFAULT NULL;
        ALTER TABLE flights ADD COLUMN zone_3_s REAL DEFAULT NULL;
        ALTER TABLE flights ADD COLUMN zone_4_s REAL DEFAULT NULL;
        ALTER TABLE flights ADD COLUMN zone_5_s REAL DEFAULT NULL;
        ALTER TABLE flights ADD COLUMN hr_zone_method TEXT DEFAULT NULL;
        ALTER TABLE flights ADD COLUMN hr_zone_max REAL DEFAULT NULL;
        ALTER TABLE flights ADD COLUMN hr_zone_resting REAL DEFAULT NULL;
        ALTER TABLE flights ADD COLUMN hr_zone_1_fraction REAL DEFAULT NULL;
        ALTER TABLE flights ADD COLUMN hr_zone_2_fraction REAL DEFAULT NULL;
        ALTER TABLE flights ADD COLUMN hr_zone_3_fraction REAL DEFAULT NULL;
        ALTER TABLE flights ADD COLUMN hr_zone_4_fraction REAL DEFAULT NULL;
        ALTER TABLE flights ADD COLUMN hr_zone_5_fraction REAL DEFAULT NULL;
        ALTER TABLE splits ADD COLUMN max_heart_rate REAL DEFAULT NULL;
        """,
        // 7: a heart-rate mission's band (bpm, and the zone it was taken from) and a time goal
        // (moving seconds; NULL: the goal is target_distance). A pace-less mission has a NULL
        // target_pace, so a row is a mission when either band is there.
        """
        ALTER TABLE flights ADD COLUMN target_hr_low REAL DEFAULT NULL;
        ALTER TABLE flights ADD COLUMN target_hr_high REAL DEFAULT NULL;
        ALTER TABLE flights ADD COLUMN target_zone INTEGER DEFAULT NULL;
        ALTER TABLE flights ADD COLUMN target_duration_s REAL DEFAULT NULL;
        """,
        // 8: where the distance, splits and route come from ('smoothed': the touchdown smoother;
        // 'live': the causal engine; NULL: stored before, so the live engine's), the live
        // engine's distance beside it, and why a flight the smoother declined kept the live one.
        """
        ALTER TABLE flights ADD COLUMN distance_method TEXT DEFAULT NULL;
        ALTER TABLE flights ADD COLUMN live_distance_m REAL DEFAULT NULL;
        ALTER TABLE flights ADD COLUMN smoothing_note TEXT DEFAULT NULL;
        """,
        // 9: who landed the flight ('runner': END; 'standstill': a forgotten stop, landed at its
        // last movement; NULL: stored before, so the runner).
        """
        ALTER TABLE flights ADD COLUMN landed_by TEXT DEFAULT NULL;
        """,
        // 10: the workout a flight flew (its text; NULL: none) and its laps, one per step run
        // and one for the run after the last step (or pressed, in a free run); each lap's step
        // as its text. What the board decided for the runner (reminders, pauses and resumes by
        // itself, a forgotten stop's landing, steps and laps), in order. The configured run the
        // runner chose, by name (NULL: none).
        """
        ALTER TABLE flights ADD COLUMN workout TEXT DEFAULT NULL;
        ALTER TABLE flights ADD COLUMN run_name TEXT DEFAULT NULL;
        CREATE TABLE laps (
            flight_id INTEGER NOT NULL DEFAULT 0 REFERENCES flights(id) ON DELETE CASCADE,
            idx INTEGER NOT NULL DEFAULT 0,
            step TEXT DEFAULT NULL,
            start_elapsed_s REAL NOT NULL DEFAULT 0,
            end_elapsed_s REAL NOT NULL DEFAULT 0,
            distance_m REAL NOT NULL DEFAULT 0,
            moving_s REAL NOT NULL DEFAULT 0,
            avg_heart_rate REAL DEFAULT NULL,
            avg_cadence REAL DEFAULT NULL,
            completed INTEGER NOT NULL DEFAULT 0
        );
        CREATE INDEX laps_by_flight ON laps(flight_id);
        CREATE TABLE decisions (
            flight_id INTEGER NOT NULL DEFAULT 0 REFERENCES flights(id) ON DELETE CASCADE,
            elapsed_s REAL NOT NULL DEFAULT 0,
            kind TEXT NOT NULL DEFAULT '',
            value REAL DEFAULT NULL
        );
        CREATE INDEX decisions_by_flight ON decisions(flight_id);
        """,
        // 11: a raw-log commit's text deflated (zlib), with its length, `inputs` then ''
        // (issue 29: the 10 Hz hour's raw log wrote 3.58 MiB into SQLite at touchdown as text).
        // Rows written before keep their text in `inputs`; readers take whichever is there.
        """
        ALTER TABLE raw_log ADD COLUMN packed BLOB DEFAULT NULL;
        ALTER TABLE raw_log ADD COLUMN text_length INTEGER DEFAULT NULL;
        """,
        // 12: a flight's route, full and simplified, one row each: its points as differences,
        // deflated, with their count and the text's length (issue 29: one row per point made
        // the 10 Hz touchdown larger than the flight's raw log). Flights stored before keep
        // their `route_points` rows; readers take whichever is there.
        """
        CREATE TABLE routes (
            flight_id INTEGER NOT NULL DEFAULT 0 REFERENCES flights(id) ON DELETE CASCADE,
            simplified INTEGER NOT NULL DEFAULT 0,
            points INTEGER NOT NULL DEFAULT 0,
            text_length INTEGER NOT NULL DEFAULT 0,
            packed BLOB DEFAULT NULL,
            PRIMARY KEY (flight_id, simplified)
        );
        """,
    ]

    static var version: Int { migrations.count }

    /// The engine whose rules computed the derived data this build writes; bump it when a rule
    /// changes what a flight's numbers are, so old flights can be found and reprocessed.
    /// 2: a flight's pauses are stored (schema 4); a version-1 flight's come from its samples.
    /// 3: pace alerts judge a verdict average with hysteresis, MISSION COMPLETE; the elevation's
    /// source, descent and range are stored (schema 5); an older flight's source is the barometer
    /// when its samples have altitude.
    /// 4: the maximum heart rate, time in each heart-rate zone and the zones are stored, and each
    /// split's maximum heart rate (schema 6); an older flight's read as missing (reprocessing
    /// computes them from its raw log). Heart-rate missions with HR HIGH / HR LOW and a time goal
    /// (schema 7).
    /// 5: the saved distance, splits and route come from the touchdown smoother over the raw
    /// log, the live distance kept beside them (schema 8); reprocessing an older flight smooths it.
    /// 6: a workout's laps are stored (schema 10); the live distance includes the speed integral
    /// not yet spent at a counted step (`Odometer.shown`).
    /// 7: an outage a paired footpod covered is bridged with its metres (the saved flight's
    /// distance and the live one); a signal gap's moving time uses the mean of the five running
    /// speeds before it. Reprocessing an older flight recomputes both.
    /// 8: the live distance's step across a silence is revised to the mean of the first five
    /// running speeds after it (`Odometer`'s bridge revision), as the speed before it already was.
    /// 9: the saved distance counts the second between START and the first fix (run from
    /// standing), and an outage the runner stopped in is measured on the arc its entry and exit
    /// headings make (`DistanceProfile.Builder.bridgeStops`), not the smoother's wide bridge; the
    /// live distance takes the same arc across such a silence, not the chord. The saved distance's
    /// Doppler drift is taken out along the route by the fixes (`AlongTrackCorrection`).
    /// 10: the live distance's Doppler drift is taken out as it goes by the fixes
    /// (`LiveDriftCorrection`); reprocessing an older flight recomputes the live distance too.
    /// 11: the weather's drift rate is the level ground's mean from the first of it, not an
    /// average starting from 0 (`ElevationGain`): a hilly run's gain under changing weather.
    static let engineVersion = 11
}

extension Logbook {
    /// The schema this build writes (`runway --version`).
    public static var schemaVersionWritten: Int { Schema.version }
    /// The engine version whose rules this build's derived data follow.
    public static var engineVersionWritten: Int { Schema.engineVersion }
}
