import Testing
import W8Core

/// The hybrid logical clock and the rule events are merged by.
@Suite struct SyncRuleTests {
    @Test func theClockNeverGoesBackAndPassesWhatItRead() {
        var clock = HybridClock(milliseconds: 1000)
        clock = clock.tick(wall: 900)  // the wall clock went back
        #expect(clock == HybridClock(milliseconds: 1000, counter: 1))
        clock = clock.tick(wall: 1000)
        #expect(clock == HybridClock(milliseconds: 1000, counter: 2))
        clock = clock.tick(wall: 1500)
        #expect(clock == HybridClock(milliseconds: 1500))
        // Another machine's clock a day ahead: the next local event is ordered after it.
        let ahead = HybridClock(milliseconds: 1500 + 86_400_000, counter: 4)
        clock = clock.passing(ahead).tick(wall: 1600)
        #expect(clock > ahead)
    }

    @Test func theHigherStampWinsWhateverTheOrder() {
        func event(_ ms: Int64, _ device: String, _ op: SyncOperation) -> SyncEvent {
            SyncEvent(
                device: device, sequence: 1, clock: HybridClock(milliseconds: ms), operation: op, kind: .weight,
                entity: "e", data: ["w": .text(device)])
        }
        let events = [event(5, "bbbbbbbb", .put), event(5, "aaaaaaaa", .del), event(4, "cccccccc", .put)]
        for order in [[0, 1, 2], [2, 1, 0], [1, 2, 0], [0, 0, 2, 1, 1]] {
            var state: SyncEvent?
            for index in order where events[index].wins(over: state?.stamp) { state = events[index] }
            #expect(state == events[0], "the same clock: the device id decides")
        }
        #expect(!events[0].wins(over: events[0].stamp), "an event already merged changes nothing")
        #expect(events[1].data.isEmpty, "a del carries no data")
    }

    @Test func theSameWeighInHasTheSameIdAndOthersDoNot() {
        let id = SyncIdentity.id(["w", "1764586800000", "182.4", "lb"])
        #expect(id == SyncIdentity.id(["w", "1764586800000", "182.4", "lb"]))
        #expect(id.count == 10)
        #expect(id != SyncIdentity.id(["w", "1764586800000", "182.4", "kg"]))
        #expect(id != SyncIdentity.id(["w", "1764586800000182.4", "lb"]), "parts are separated")
        #expect(SyncIdentity.isDevice(SyncIdentity.device(random: 0xdead_beef)[...]))
        #expect(!SyncIdentity.isDevice("../../etc"))
    }

    @Test func thePersonsSettingsTravelAndTheMachinesStay() {
        #expect(SettingKey.unit.travels && SettingKey.waterGoal.travels && SettingKey.weighInTime.travels)
        #expect(!SettingKey.notificationsEnabled.travels && !SettingKey.summaryEnabled.travels)
        #expect(!SettingKey.widgetSignal.travels && !SettingKey.weighIn.travels)
    }
}
