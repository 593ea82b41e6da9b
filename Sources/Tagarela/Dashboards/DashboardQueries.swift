import Foundation
import GRDB

/// What each dashboard shows, read in the request's one transaction.
enum DashboardQueries {
    struct Clinician {
        let patients: [People.PatientSummary]
        /// Meal adherence over the last two weeks, by patient; empty unless the clinician is a nutritionist.
        let adherence: [Int64: NutritionRules.Adherence]
        /// What the worklist decides from (`WorklistRules`), by patient.
        let signals: [Int64: WorklistRules.Signals]
    }

    static func clinician(_ actor: Actor, matching search: String, now: (date: String, time: String), nowInstant: Date,
                          _ db: Database) throws -> Clinician {
        let since = ISODate.adding(-13, to: now.date)
        let patients = try People.patients(visibleTo: actor, matching: search, db)
        let adherence = actor.specialties.contains(.nutrition)
            ? try Adherence.summaries(clinicianId: actor.userId, from: since, nowDate: now.date, nowTime: now.time, db) : [:]
        var signals = try worklistSignals(clinicianId: actor.userId, since: nowInstant.addingTimeInterval(-30 * 86_400), db)
        let goals = try GoalQueries.progress(ofPatients: patients.map(\.id), today: now.date, db)
        for (patientId, progress) in goals {
            signals[patientId, default: WorklistRules.Signals()].goalsBehind = progress.filter { $0.status == .behind }.count
        }
        for (patientId, figures) in adherence {
            signals[patientId, default: WorklistRules.Signals()].overdueMeals = figures.overdue
            signals[patientId, default: WorklistRules.Signals()].adherence = figures.rate
        }
        return Clinician(patients: patients, adherence: adherence, signals: signals)
    }

    /// One row per patient of the clinician, in one statement: each figure is a lookup on an index
    /// (`tapDay`'s key for the last day of use, `evaluation_patient` for the last evaluation, the
    /// patient's notes), never a scan of the taps. Tutor notes count from the clinician's last opening
    /// of the patient, or from `since` when they never opened it.
    static func worklistSignals(clinicianId: Int64, since: Date, _ db: Database) throws -> [Int64: WorklistRules.Signals] {
        let rows = try Row.fetchCursor(db.cachedStatement(sql: """
            SELECT cp.patientId,
                   EXISTS (SELECT 1 FROM plan WHERE plan.patientId = cp.patientId),
                   (SELECT max(day) FROM tapDay WHERE tapDay.patientId = cp.patientId),
                   (SELECT max(takenOn) FROM evaluation WHERE evaluation.patientId = cp.patientId),
                   (SELECT count(*) FROM observation o
                    WHERE o.patientId = cp.patientId AND o.authorRole = 'tutor' AND o.createdAt > coalesce(po.openedAt, ?))
            FROM clinicianPatient cp
            LEFT JOIN patientOpened po ON po.clinicianId = cp.clinicianId AND po.patientId = cp.patientId
            WHERE cp.clinicianId = ?
            """), arguments: [since, clinicianId])
        var signals: [Int64: WorklistRules.Signals] = [:]
        while let row = try rows.next() {
            signals[row[0]] = WorklistRules.Signals(hasBoards: row[1], lastBoardUse: row[2], lastEvaluation: row[3], newTutorNotes: row[4])
        }
        return signals
    }

    struct Tutor {
        let patients: [People.PatientSummary]
        let linkRequests: [LinkRequests.Pending]
    }

    static func tutor(_ actor: Actor, _ db: Database) throws -> Tutor {
        Tutor(patients: try People.patients(visibleTo: actor, matching: "", db),
              linkRequests: try LinkRequests.pending(for: actor.userId, db))
    }

    struct Patient {
        let home: PatientHomeData
        let linkRequests: [LinkRequests.Pending]
    }

    static func patient(_ actor: Actor, today: String, _ t: Translator, _ db: Database) throws -> Patient {
        Patient(home: try PatientHomeData.fetch(patientId: actor.userId, today: today, t, db),
                // Consent is not the child's to give on a tablet in patient mode.
                linkRequests: try actor.isPatientMode ? [] : LinkRequests.pending(for: actor.userId, db))
    }

    struct Trainer {
        let clients: [People.PatientSummary]
        let reminders: [Evaluations.Reminder]
    }

    static func trainer(_ actor: Actor, matching search: String, today: String, _ db: Database) throws -> Trainer {
        Trainer(clients: try People.patients(visibleTo: actor, matching: search, db),
                reminders: try Evaluations.reminders(for: actor.userId, today: today, db))
    }
}
