internal import CPizzeriaSQLite
import Foundation
import Synchronization

/// Counts what SQLite runs on a connection (`sqlite3_trace_v2` with `SQLITE_TRACE_STMT`,
/// <https://sqlite.org/c3ref/trace_v2.html>): the statements the program runs, the trigger
/// programs they fire, and the statements inside those — what a measurement of "statements per
/// booking" reads. Not for production paths: the callback runs for every one of them.
public final class StatementCounter: Sendable {
    private let statements = Atomic<Int>(0)
    private let triggers = Atomic<Int>(0)
    private let triggerStatements = Atomic<Int>(0)

    /// A counter at zero.
    public init() {}

    /// What started since the last call, then zero again: statements the program ran, trigger
    /// programs, and statements run inside trigger programs.
    public func take() -> (statements: Int, triggers: Int, triggerStatements: Int) {
        (
            statements.exchange(0, ordering: .relaxed), triggers.exchange(0, ordering: .relaxed),
            triggerStatements.exchange(0, ordering: .relaxed)
        )
    }

    /// Counts one start reported by a `SQLITE_TRACE_STMT` callback (`text`, its X argument):
    /// SQLite reports a trigger program as the comment `-- TRIGGER name` and each statement in
    /// it as `-- ` and the statement.
    public func record(_ text: UnsafePointer<CChar>?) {
        guard let text, text[0] == 45, text[1] == 45, text[2] == 32 else {  // not "-- "
            statements.add(1, ordering: .relaxed)
            return
        }
        // "-- TRIGGER name"; any other "-- …" is a statement of a trigger program.
        if strncmp(text, "-- TRIGGER ", 11) == 0 {
            triggers.add(1, ordering: .relaxed)
        } else {
            triggerStatements.add(1, ordering: .relaxed)
        }
    }
}

extension Connection {
    /// Counts every statement and trigger program this connection starts into `counter`; `nil`
    /// stops counting.
    func countStatements(into counter: StatementCounter?) {
        statementCounter = counter
        guard let counter else {
            sqlite3_trace_v2(handle, 0, nil, nil)
            return
        }
        sqlite3_trace_v2(
            handle, UInt32(SQLITE_TRACE_STMT),
            { _, context, _, text in
                guard let context else { return 0 }
                Unmanaged<StatementCounter>.fromOpaque(context).takeUnretainedValue()
                    .record(text?.assumingMemoryBound(to: CChar.self))
                return 0
            }, Unmanaged.passUnretained(counter).toOpaque())
    }
}

extension Database {
    /// Counts the statements and trigger programs the writer connection starts into `counter`
    /// (`nil` stops): `pizzeria-bench` reports them per operation.
    public func countWriterStatements(into counter: StatementCounter?) throws {
        try withWriter { $0.countStatements(into: counter) }
    }
}
