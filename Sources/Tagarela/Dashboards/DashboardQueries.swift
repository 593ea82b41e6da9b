import GRDB

/// What each dashboard shows, read in the request's one transaction.
enum DashboardQueries {
    struct Clinician {
        let patients: [People.PatientSummary]
        /// Meal adherence over the last two weeks, by patient; empty unless the clinician is a nutritionist.
        let adherence: [Int64: NutritionRules.Adherence]
    }

    static func clinician(_ actor: Actor, matching search: String, now: (date: String, time: String), _ db: Database) throws -> Clinician {
        let since = ISODate.adding(-13, to: now.date)
        return Clinician(
            patients: try People.patients(visibleTo: actor, matching: search, db),
            adherence: actor.specialties.contains(.nutrition)
                ? try Adherence.summaries(clinicianId: actor.userId, from: since, nowDate: now.date, nowTime: now.time, db) : [:])
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
