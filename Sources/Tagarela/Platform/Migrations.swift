import GRDB

/// The schema's timeline: the only place that knows the order of the migrations.
/// A shipped migration is never edited; a change is a new migration at the end.
enum Migrations {
    static var migrator: DatabaseMigrator {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("2026-11 platform v1", migrate: PlatformSchema.v1)
        migrator.registerMigration("2026-11 accounts v1", migrate: AccountsSchema.v1)
        migrator.registerMigration("2026-11 body composition v1", migrate: BodyCompositionSchema.v1)
        migrator.registerMigration("2026-11 nutrition v1", migrate: NutritionSchema.v1)
        migrator.registerMigration("2026-11 aac v1", migrate: AACSchema.v1)
        migrator.registerMigration("2026-11 aac v2 sentence plans", migrate: AACSchema.v2SentencePlans)
        migrator.registerMigration("2026-11 access v1", migrate: AccessSchema.v1)
        migrator.registerMigration("2026-11 educat v1", migrate: EduCATSchema.v1)
        migrator.registerMigration("2026-11 capacity: taps per day", migrate: TapDays.v1)
        migrator.registerMigration("2026-11 capacity: taps per day, targeted deletes", migrate: TapDays.v2TargetedDeletes)
        migrator.registerMigration("2026-11 consent: link requests, password set", migrate: AccountsSchema.v2Consent)
        migrator.registerMigration("2026-11 records: meal versions", migrate: NutritionSchema.v2MealVersions)
        migrator.registerMigration("2026-11 access v2 display: theme and text size", migrate: AccessSchema.v2Display)
        migrator.registerMigration("2026-11 educat levels, answers and content sets", migrate: EduCATSchema.v2Levels)
        migrator.registerMigration("2026-11 word forms: a symbol's grammar and forms", migrate: WordFormsSchema.v1)
        migrator.registerMigration("2026-11 goals", migrate: GoalSchema.v1)
        migrator.registerMigration("2026-11 obf imported sets", migrate: OBFSets.v1)
        migrator.registerMigration("2026-11 modeling", migrate: PatientMode.v1Modeling)
        migrator.registerMigration("2026-11 records: last opened by a clinician, first use of a symbol", migrate: RecordVisits.v1)
        migrator.registerMigration("2026-11 nutrition eaten estimate", migrate: NutritionSchema.v3EatenEstimate)
        migrator.registerMigration("2026-11 goals: symbols by category", migrate: GoalSchema.v2SymbolsByCategory)
        migrator.registerMigration("2026-11 wordforms: imported cells keep their colours", migrate: CellColours.v1)
        migrator.registerMigration("2026-11 goals: % of eduCAT answers right", migrate: GoalSchema.v2Accuracy)
        migrator.registerMigration("2026-11 records: tutor notes counted from an index", migrate: RecordVisits.v2TutorNotes)
        migrator.registerMigration("2026-11 records: changes counted per patient", migrate: PatientChanges.v1)
        migrator.registerMigration("2026-11 capacity: taps per day in all, first use of each symbol", migrate: TapDays.v3DayTotalsAndFirstUse)
        migrator.registerMigration("2026-11 boards: a version per grid, kept by triggers", migrate: GridVersions.v1)
        migrator.registerMigration("2026-11 records: taps per day count the child's own", migrate: TapDays.v4OwnTapsOnly)
        migrator.registerMigration("2026-11 records: the child taps alone in patient mode", migrate: PatientMode.v2Alone)
        migrator.registerMigration("2026-11 records: a tutor's goal note is news for the worklist", migrate: PatientChanges.v2GoalNotes)
        migrator.registerMigration("2026-11 goals: why a goal was closed", migrate: GoalSchema.v3ClosedReason)
        migrator.registerMigration("2026-11 accounts: login failures kept across a restart", migrate: LoginFailures.v1)
        migrator.registerMigration("2026-11 accounts: a second factor for staff", migrate: TwoFactorStore.v1)
        migrator.registerMigration("2026-11 bodycomp: evaluation versions", migrate: BodyCompositionSchema.v2EvaluationVersions)
        migrator.registerMigration("2026-11 privacy: erasure requests", migrate: Erasures.v1)
        migrator.registerMigration("2026-11 privacy: media looked up by file", migrate: MediaAccess.v1Indexes)
        migrator.registerMigration("2026-11 EduCAT: records per game and level", migrate: EduCATSchema.v3RecordsPerLevel)
        migrator.registerMigration("2026-11 EduCAT: the teacher's own pictures", migrate: EduCATSchema.v4OwnPictures)
        migrator.registerMigration("2026-11 Nutrition: meal lines keep their food's figures; foods get versions and can be hidden",
                                   migrate: NutritionSchema.v4FoodSnapshots)
        migrator.registerMigration("2026-11 Nutrition: daily targets per patient", migrate: NutritionSchema.v5DailyTargets)
        migrator.registerMigration("2026-11 FHIR: measurements imported from bundles", migrate: FHIRSchema.v1Measurements)
        migrator.registerMigration("2026-11 FHIR: API tokens", migrate: FHIRSchema.v2Tokens)
        migrator.registerMigration("2026-11 AAC: boards up to 16 × 16", migrate: LargeGrids.v1)
        migrator.registerMigration("2026-11 screens: a board's own picture on the child's tiles", migrate: BoardCovers.v1)
        migrator.registerMigration("voices: a patient's chosen voice", migrate: SpeechVoice.v1)
        return migrator
    }
}

enum PlatformSchema {
    /// Instance-wide settings, such as whether the demo clinic was loaded.
    static func v1(_ db: Database) throws {
        try db.create(table: "setting") { t in
            t.primaryKey("key", .text)
            t.column("value", .text).notNull()
            t.column("updatedAt", .datetime).notNull()
        }
    }
}
