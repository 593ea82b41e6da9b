import Foundation
import GRDB
@testable import Tagarela
import Testing

/// The Accounts and Access store functions, each against a real SQLite database with every migration:
/// what each writes, the audit row it adds, and what it refuses.
@Suite struct AccountStoreTests {
    let now = Date(timeIntervalSince1970: 1_795_000_000)
    let policy = SessionPolicy()

    /// A migrated in-memory database with an admin, a clinician, a tutor and a patient linked to both.
    func database() throws -> (DatabaseQueue, People) {
        let db = try DatabaseQueue()
        try Migrations.migrator.migrate(db)
        let people = try db.write { (db: Database) throws in
            func user(_ username: String, _ name: String, _ role: Role, hash: String? = "old-hash") throws -> Int64 {
                var user = User(username: username, displayName: name, role: role, specialties: role == .clinician ? "speech" : "",
                                passwordHash: hash, createdAt: now, updatedAt: now, passwordSetAt: hash == nil ? nil : now)
                try user.insert(db)
                return user.id!
            }
            let people = People(admin: try user("root", "Root Admin", .admin), clinician: try user("cli", "Clara Clínica", .clinician),
                                tutor: try user("tut", "Tomás Tutor", .tutor), patient: try user("pat", "Pedro Paciente", .patient, hash: nil))
            try Patient(userId: people.patient).insert(db)
            try CareLink.tutor.link(people.tutor, people.patient, at: now, db)
            try CareLink.clinician.link(people.clinician, people.patient, at: now, db)
            return people
        }
        return (db, people)
    }

    struct People {
        let admin: Int64
        let clinician: Int64
        let tutor: Int64
        let patient: Int64
    }

    func audit(_ actor: Int64?, _ name: String = "Someone") -> AuditContext {
        AuditContext(actorId: actor, actorName: name, clientAddress: "10.0.0.9", now: now)
    }

    func actor(_ id: Int64, _ db: DatabaseQueue) throws -> Actor {
        Actor(user: try db.read { try #require(try User.fetchOne($0, key: id)) })
    }

    func auditRows(_ db: Database) throws -> [AuditEntry] { try AuditEntry.order(Column("id")).fetchAll(db) }

    func sessions(of userId: Int64, _ db: Database) throws -> [Session] {
        try Session.filter(Session.Columns.userId == userId).order(Column("id")).fetchAll(db)
    }

    // MARK: Logins

    /// `User` and `Session` are read by column (every request whose session is not in memory): each
    /// column lands in its own field, and a value of the wrong type throws as `Decodable` did.
    @Test func aUserAndASessionAreReadWithEveryField() throws {
        let (db, people) = try database()
        try db.write { db in
            var user = User(username: "eva", displayName: "Eva Évora", role: .clinician, specialties: "speech nutrition",
                            locale: "es", isActive: false, passwordHash: "hash", createdBy: people.admin, createdAt: now,
                            updatedAt: now.addingTimeInterval(60), passwordSetAt: now.addingTimeInterval(120))
            try user.insert(db)
            let read = try #require(try User.find(user.id!, db))
            #expect(read.id == user.id && read.username == "eva" && read.displayName == "Eva Évora" && read.role == .clinician)
            #expect(read.specialties == "speech nutrition" && read.locale == "es" && read.isActive == false)
            #expect(read.passwordHash == "hash" && read.createdBy == people.admin && read.createdAt == now)
            #expect(read.updatedAt == now.addingTimeInterval(60) && read.passwordSetAt == now.addingTimeInterval(120))

            var session = Session(tokenHash: "token-hash", userId: user.id!, csrfToken: "csrf", patientModeFor: people.patient,
                                  modeling: true, createdAt: now, lastSeenAt: now.addingTimeInterval(5),
                                  expiresAt: now.addingTimeInterval(3_600))
            try session.insert(db)
            let found = try #require(try Session.fetchOne(db, key: session.id))
            #expect(found.id == session.id && found.tokenHash == "token-hash" && found.userId == user.id && found.csrfToken == "csrf")
            #expect(found.patientModeFor == people.patient && found.modeling && found.createdAt == now)
            #expect(found.lastSeenAt == now.addingTimeInterval(5) && found.expiresAt == now.addingTimeInterval(3_600))

            try db.execute(sql: "UPDATE user SET createdAt = 'yesterday' WHERE id = ?", arguments: [user.id])
            #expect(throws: (any Error).self) { try User.find(user.id!, db) }
        }
    }

    @Test func aLoginStartsASessionRotatesTheOldOneRehashesAndIsAudited() throws {
        let (queue, people) = try database()
        try queue.write { (db: Database) throws in
            let user = try #require(try User.fetchOne(db, key: people.tutor))
            let old = try SessionStore.start(for: user, replacing: nil, at: now, policy: policy, db)
            let token = try Logins.start(user, rehash: "new-hash", replacing: old, policy: policy,
                                         audit: audit(user.id, user.displayName), db)
            let kept = try sessions(of: people.tutor, db)
            #expect(kept.map(\.tokenHash) == [Token.hash(token)], "the browser's old session id is dead")
            #expect(try User.fetchOne(db, key: people.tutor)?.passwordHash == "new-hash")
            let entry = try #require(try auditRows(db).last)
            #expect((entry.action, entry.entity, entry.entityId, entry.summary) == ("login", "user", people.tutor, "tut"))
        }
    }

    @Test func aLoginWithoutRehashLeavesTheHashAlone() throws {
        let (queue, people) = try database()
        try queue.write { (db: Database) throws in
            let user = try #require(try User.fetchOne(db, key: people.tutor))
            _ = try Logins.start(user, rehash: nil, replacing: nil, policy: policy, audit: audit(user.id), db)
            #expect(try User.fetchOne(db, key: people.tutor)?.passwordHash == "old-hash")
            #expect(try sessions(of: people.tutor, db).count == 1)
        }
    }

    @Test func aFailedLoginIsAuditedWithTheLockoutsItStarts() throws {
        let (queue, people) = try database()
        try queue.write { (db: Database) throws in
            let stranger = audit(nil, "—")
            try Logins.recordFailure(username: "tut", account: people.tutor, admission: .init(), audit: stranger, db)
            #expect(try auditRows(db).map(\.action) == ["login_failed"])
            let long = String(repeating: "x", count: 500)
            try Logins.recordFailure(username: long, account: nil,
                                     admission: .init(wait: 0, locksAccount: true, locksAddress: true), audit: stranger, db)
            let rows = try auditRows(db)
            #expect(rows.map(\.action) == ["login_failed", "login_failed", "lockout", "lockout"])
            #expect(rows[1].summary.count == 64, "what a stranger typed is kept short")
            #expect(rows[2].summary == "account: " + String(repeating: "x", count: 64))
            #expect((rows[3].entity, rows[3].summary) == ("address", "address: 10.0.0.9"))
            #expect(try Session.fetchCount(db) == 0)
        }
    }

    @Test func loggingOutEndsThisSessionAndLoggingOutEverywhereEndsAll() throws {
        let (queue, people) = try database()
        try queue.write { (db: Database) throws in
            let user = try #require(try User.fetchOne(db, key: people.tutor))
            let here = try SessionStore.start(for: user, replacing: nil, at: now, policy: policy, db)
            _ = try SessionStore.start(for: user, replacing: nil, at: now, policy: policy, db)
            _ = try SessionStore.start(for: user, replacing: nil, at: now, policy: policy, db)
            try Logins.end(token: here, userId: people.tutor, audit: audit(people.tutor), db)
            #expect(try sessions(of: people.tutor, db).count == 2)
            #expect(try !sessions(of: people.tutor, db).contains { $0.tokenHash == Token.hash(here) })
            try Logins.endEverywhere(userId: people.tutor, audit: audit(people.tutor), db)
            #expect(try sessions(of: people.tutor, db).isEmpty)
            #expect(try auditRows(db).map { "\($0.action) \($0.summary)" } == ["logout ", "logout everywhere"])
        }
    }

    // MARK: One's own account

    @Test func theLanguageIsAPreferenceStoredWithoutAnAuditRow() throws {
        let (queue, people) = try database()
        try queue.write { (db: Database) throws in
            try OwnAccount.setLanguage(userId: people.tutor, .es, at: now.addingTimeInterval(60), db)
            var user = try #require(try User.fetchOne(db, key: people.tutor))
            #expect(user.locale == "es" && user.updatedAt == now.addingTimeInterval(60))
            try OwnAccount.setLanguage(userId: people.tutor, nil, at: now, db)
            user = try #require(try User.fetchOne(db, key: people.tutor))
            #expect(user.locale == nil, "back to the browser's language")
            #expect(try auditRows(db).isEmpty)
        }
    }

    @Test func aNewPasswordEndsTheOtherDevicesButThisOne() throws {
        let (queue, people) = try database()
        try queue.write { (db: Database) throws in
            let user = try #require(try User.fetchOne(db, key: people.clinician))
            _ = try SessionStore.start(for: user, replacing: nil, at: now, policy: policy, db)
            _ = try SessionStore.start(for: user, replacing: nil, at: now, policy: policy, db)
            let tutorsToken = try SessionStore.start(for: try #require(try User.fetchOne(db, key: people.tutor)),
                                                     replacing: nil, at: now, policy: policy, db)
            let here = try sessions(of: people.clinician, db)[1].id
            let later = audit(people.clinician)
            try OwnAccount.changePassword(userId: people.clinician, to: "brand-new", keeping: here, audit: later, db)
            let changed = try #require(try User.fetchOne(db, key: people.clinician))
            #expect(changed.passwordHash == "brand-new" && changed.passwordSetAt == now)
            #expect(try sessions(of: people.clinician, db).map(\.id) == [here])
            #expect(try sessions(of: people.tutor, db).map(\.tokenHash) == [Token.hash(tutorsToken)], "nobody else's")
            let entry = try #require(try auditRows(db).last)
            #expect((entry.action, entry.entityId, entry.summary) == ("set_password", people.clinician, "account"))
        }
    }

    // MARK: Invitations

    @Test func anInvitationSetsThePasswordOnceAndStartsASession() throws {
        let (queue, people) = try database()
        try queue.write { (db: Database) throws in
            let token = try Invitation.issue(for: people.patient, by: people.clinician, at: now, db)
            let first = try #require(try Invitation.accept(token: token, passwordHash: "chosen", at: now.addingTimeInterval(5),
                                                           clientAddress: "10.0.0.7", policy: policy, db))
            #expect(first.user.id == people.patient)
            #expect(try sessions(of: people.patient, db).map(\.tokenHash) == [Token.hash(first.sessionToken)])
            let user = try #require(try User.fetchOne(db, key: people.patient))
            #expect(user.passwordHash == "chosen" && user.passwordSetAt == now.addingTimeInterval(5))
            let entry = try #require(try auditRows(db).last)
            #expect((entry.action, entry.actorId, entry.summary, entry.clientAddress)
                    == ("set_password", people.patient, "invitation", "10.0.0.7"), "the account's own change")
            // A second tab, or an old bookmark: the link is used up and nothing changes.
            let before = try auditRows(db).count
            #expect(try Invitation.accept(token: token, passwordHash: "other", at: now.addingTimeInterval(9),
                                          clientAddress: "10.0.0.7", policy: policy, db) == nil)
            #expect(try User.fetchOne(db, key: people.patient)?.passwordHash == "chosen")
            #expect(try auditRows(db).count == before)
            #expect(try Invitation.accept(token: "made-up", passwordHash: "x", at: now, clientAddress: "", policy: policy, db) == nil)
        }
    }

    @Test func anExpiredInvitationSetsNothing() throws {
        let (queue, people) = try database()
        try queue.write { (db: Database) throws in
            let token = try Invitation.issue(for: people.patient, by: people.clinician, at: now, db)
            #expect(try Invitation.accept(token: token, passwordHash: "late", at: now.addingTimeInterval(Invitation.lifetime + 1),
                                          clientAddress: "", policy: policy, db) == nil)
            #expect(try User.fetchOne(db, key: people.patient)?.passwordHash == nil)
            #expect(try Session.fetchCount(db) == 0)
        }
    }

    @Test func invitationLinksArePrintedFromTheirRoute() {
        #expect(Invitation.path(for: "abc_DEF-123") == "/invitations/abc_DEF-123")
        #expect(Invitation.path(for: "abc_DEF-123") == AccountsEndpoints.acceptInvitation.path("abc_DEF-123"))
    }

    // MARK: Staff accounts (the administrator's)

    @Test func staffIsCreatedWithAnInvitationAndATakenUsernameIsRefused() throws {
        let (queue, people) = try database()
        let admin = try actor(people.admin, queue)
        try queue.write { (db: Database) throws in
            guard case .created(let user, let token) = try StaffAccounts.create(
                name: "Nora Nutri", username: "nora", role: .clinician, specialties: [.nutrition], by: admin,
                audit: audit(people.admin), db) else { Issue.record("created"); return }
            #expect(user.passwordHash == nil && user.specialties == "nutrition" && user.createdBy == people.admin)
            guard case .valid(_, let invited) = try Invitation.find(token: token, at: now, db) else { Issue.record("valid link"); return }
            #expect(invited.id == user.id)
            #expect(try auditRows(db).map(\.action) == ["create", "invite"])
            guard case .usernameTaken = try StaffAccounts.create(name: "Other", username: "NORA", role: .trainer, specialties: [],
                                                                 by: admin, audit: audit(people.admin), db)
            else { Issue.record("a username differing only in case is taken"); return }
            #expect(try User.filter(Column("displayName") == "Other").fetchCount(db) == 0)
            #expect(try auditRows(db).count == 2)
        }
    }

    @Test func deactivatingEndsSessionsAndReactivatingIsAudited() throws {
        let (queue, people) = try database()
        let admin = try actor(people.admin, queue)
        try queue.write { (db: Database) throws in
            _ = try SessionStore.start(for: try #require(try User.fetchOne(db, key: people.clinician)), replacing: nil, at: now,
                                       policy: policy, db)
            try StaffAccounts.setActive(people.clinician, false, by: admin, audit: audit(people.admin), db)
            #expect(try User.fetchOne(db, key: people.clinician)?.isActive == false)
            #expect(try sessions(of: people.clinician, db).isEmpty)
            try StaffAccounts.setActive(people.clinician, true, by: admin, audit: audit(people.admin), db)
            #expect(try User.fetchOne(db, key: people.clinician)?.isActive == true)
            #expect(try auditRows(db).map { "\($0.action) \($0.summary)" } == ["deactivate Clara Clínica", "activate Clara Clínica"])
        }
    }

    @Test func noAdminLocksThemselvesOutAndFamiliesAreNotStaff() throws {
        let (queue, people) = try database()
        let admin = try actor(people.admin, queue)
        try queue.write { (db: Database) throws in
            #expect(throws: AppError.forbidden) { try StaffAccounts.setActive(people.admin, false, by: admin, audit: audit(people.admin), db) }
            #expect(throws: AppError.notFound) { try StaffAccounts.setActive(people.tutor, false, by: admin, audit: audit(people.admin), db) }
            #expect(throws: AppError.notFound) { try StaffAccounts.setActive(9_999, false, by: admin, audit: audit(people.admin), db) }
            #expect(try User.filter(Column("isActive") == false).fetchCount(db) == 0)
            #expect(try auditRows(db).isEmpty)
        }
    }

    @Test func aResetStopsThePasswordAndTheSessionsAndGivesADayLongLink() throws {
        let (queue, people) = try database()
        let admin = try actor(people.admin, queue)
        try queue.write { (db: Database) throws in
            _ = try SessionStore.start(for: try #require(try User.fetchOne(db, key: people.tutor)), replacing: nil, at: now,
                                       policy: policy, db)
            let later = AuditContext(actorId: people.admin, actorName: "Root Admin", clientAddress: "x", now: now.addingTimeInterval(600))
            let (user, token) = try StaffAccounts.resetPassword(people.tutor, by: admin, audit: later, db)
            #expect(user.passwordHash == nil && user.passwordSetAt == now, "a password was set once: no clinician may invite")
            #expect(try User.fetchOne(db, key: people.tutor)?.passwordHash == nil)
            #expect(try sessions(of: people.tutor, db).isEmpty)
            let invitation = try #require(try Invitation.filter(Column("tokenHash") == Token.hash(token)).fetchOne(db))
            #expect(invitation.expiresAt == now.addingTimeInterval(600 + Invitation.resetLifetime))
            let entry = try #require(try auditRows(db).last)
            #expect((entry.action, entry.summary) == ("password_reset", "Tomás Tutor (tut)"))
            #expect(throws: AppError.forbidden) { try StaffAccounts.resetPassword(people.admin, by: admin, audit: later, db) }
            try StaffAccounts.setActive(people.clinician, false, by: admin, audit: later, db)
            #expect(throws: AppError.notFound) { try StaffAccounts.resetPassword(people.clinician, by: admin, audit: later, db) }
        }
    }

    // MARK: Patient mode

    @Test func patientModeOpensAndEndsOnOneSessionOnly() throws {
        let (queue, people) = try database()
        try queue.write { (db: Database) throws in
            let tutor = try #require(try User.fetchOne(db, key: people.tutor))
            _ = try SessionStore.start(for: tutor, replacing: nil, at: now, policy: policy, db)
            _ = try SessionStore.start(for: tutor, replacing: nil, at: now, policy: policy, db)
            let (tablet, phone) = try { let all = try sessions(of: people.tutor, db); return (all[0].id!, all[1].id!) }()
            let opened = try PatientMode.open(sessionId: tablet, patientId: people.patient, plan: 12345, audit: audit(people.tutor), db)
            #expect(opened == nil, "a plan that is not the patient's opens the patient's home")
            #expect(try sessions(of: people.tutor, db).map(\.patientModeFor) == [people.patient, nil])
            try PatientMode.recordExitLockout(patientId: people.patient, audit: audit(people.tutor), db)
            try PatientMode.exit(sessionId: tablet, patientId: people.patient, audit: audit(people.tutor), db)
            #expect(try sessions(of: people.tutor, db).allSatisfy { $0.patientModeFor == nil })
            #expect(try auditRows(db).map { "\($0.action) \($0.entity) \($0.entityId ?? 0)" }
                    == ["patient_mode_open patient \(people.patient)", "lockout session \(people.patient)",
                        "patient_mode_exit patient \(people.patient)"])
            _ = phone
        }
    }

    @Test func patientModeOpenedFromOneOfThePatientsPlansGoesToThatPlan() async throws {
        let test = try await TestApp()
        let (bruno, carla) = (try test.id(of: "bruno"), try test.id(of: "Carla Costa"))
        try test.write { (db: Database) throws in
            let planId = try #require(try Int64.fetchOne(db, sql: "SELECT id FROM plan WHERE patientId = ? LIMIT 1", arguments: [carla]))
            let otherPlan = try Int64.fetchOne(db, sql: "SELECT id FROM plan WHERE patientId <> ? LIMIT 1", arguments: [carla])
            let session = try SessionStore.start(for: try #require(try User.fetchOne(db, key: bruno)), replacing: nil, at: test.clock.now,
                                                 policy: policy, db)
            let sessionId = try #require(try Session.filter(Column("tokenHash") == Token.hash(session)).fetchOne(db)?.id)
            let audit = AuditContext(actorId: bruno, actorName: "Bruno", clientAddress: "t", now: test.clock.now)
            #expect(try PatientMode.open(sessionId: sessionId, patientId: carla, plan: planId, audit: audit, db) == planId)
            if let otherPlan {
                #expect(try PatientMode.open(sessionId: sessionId, patientId: carla, plan: otherPlan, audit: audit, db) == nil,
                        "another patient's plan is not opened")
            }
            #expect(try Session.fetchOne(db, key: sessionId)?.patientModeFor == carla)
        }
    }

    // MARK: Access settings

    @Test func savedAccessSettingsAreAuditedWithWhatTheyNowAre() throws {
        let (queue, people) = try database()
        try queue.write { (db: Database) throws in
            var settings = AccessSettings.standard
            settings.scanning = .linear
            settings.dwellMs = 900
            try settings.save(patientId: people.patient, by: people.tutor, audit: audit(people.tutor), db)
            #expect(try AccessSettings.load(patientId: people.patient, db) == settings)
            #expect(try Int64.fetchOne(db, sql: "SELECT updatedBy FROM accessSetting WHERE patientId = ?",
                                       arguments: [people.patient]) == people.tutor)
            let entry = try #require(try auditRows(db).last)
            #expect((entry.action, entry.entity, entry.entityId) == ("update", "accessSetting", people.patient))
            #expect(entry.summary == AccessView(settings).attributes + #" voice="espeak""#, "the voice is audited too")
        }
    }

    @Test func accessQueriesFindOnlyVisiblePatients() throws {
        let (queue, people) = try database()
        let tutor = try actor(people.tutor, queue), admin = try actor(people.admin, queue)
        try queue.read { (db: Database) throws in
            let found = try AccessQueries.settings(patientId: people.patient, visibleTo: tutor, db)
            #expect(found.patient.name == "Pedro Paciente" && found.settings == .standard)
            #expect(throws: AppError.notFound) { try AccessQueries.patient(people.patient, visibleTo: admin, db) }
            #expect(throws: AppError.notFound) { try AccessQueries.patient(9_999, visibleTo: tutor, db) }
        }
    }

    // MARK: The administrator's queries

    @Test func accountsAreSearchedByNameOrUsernameAndCut() throws {
        let (queue, _) = try database()
        try queue.read { (db: Database) throws in
            #expect(try AdminQueries.accounts(matching: "", limit: 100, db).map(\.username)
                    == ["cli", "pat", "root", "tut"], "by name, case-insensitively")
            #expect(try AdminQueries.accounts(matching: "TUT", limit: 100, db).map(\.username) == ["tut"])
            #expect(try AdminQueries.accounts(matching: "Clínica", limit: 100, db).map(\.username) == ["cli"])
            #expect(try AdminQueries.accounts(matching: "", limit: 2, db).count == 2)
            #expect(try AdminQueries.staff(db).map(\.username) == ["cli", "root"])
        }
    }

    @Test func theAuditLogIsPagedNewestFirst() throws {
        let (queue, people) = try database()
        try queue.write { (db: Database) throws in
            for minute in 0..<7 {
                try AuditContext(actorId: people.admin, actorName: "Root", clientAddress: "x", now: now.addingTimeInterval(Double(minute) * 60))
                    .record(minute.isMultiple(of: 2) ? .login : .logout, "user", Int64(minute), "\(minute)", db)
            }
            var filter = AuditFilter()
            let first = try AdminQueries.auditLog(filter, page: 1, pageSize: 3, db)
            #expect(first.total == 7 && first.entries.map(\.summary) == ["6", "5", "4"])
            #expect(try AdminQueries.auditLog(filter, page: 3, pageSize: 3, db).entries.map(\.summary) == ["0"])
            filter.action = "logout"
            let logouts = try AdminQueries.auditLog(filter, page: 1, pageSize: 3, db)
            #expect(logouts.total == 3 && logouts.entries.map(\.summary) == ["5", "3", "1"])
        }
    }
}
