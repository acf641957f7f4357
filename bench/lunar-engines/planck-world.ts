/**
 * LunarLander's world on planck (a float64 TypeScript rewrite of Box2D 2.3): kept to compare
 * engines (bench/lunar-engines.ts).
 */
import { Box, Edge, Polygon, RevoluteJoint, World, type Body, type Contact, type Vec2Value } from 'planck';
import { ANGLE, OMEGA, VX, VY, X, Y, type LanderScene, type LanderWorld } from '../../tasks/lunar-lander-common/engine.ts';
import { CHUNKS, FPS, GRAVITY, LANDER_POLY, LEG_AWAY, LEG_DOWN, LEG_H, LEG_SPRING_TORQUE, LEG_W, POSITION_ITERATIONS, SCALE, VELOCITY_ITERATIONS, VIEWPORT_H, VIEWPORT_W, W } from '../../tasks/lunar-lander-common/constants.ts';

const impulse: Vec2Value = { x: 0, y: 0 };
const point: Vec2Value = { x: 0, y: 0 };

export class PlanckLanderWorld implements LanderWorld {
  readonly body = new Float64Array(6);
  readonly legContact = new Uint8Array(2);
  gameOver = false;
  private world!: World;
  private lander!: Body;
  private legs: Body[] = [];

  build(scene: LanderScene): void {
    const world = new World({ x: 0, y: GRAVITY });
    this.world = world;
    this.gameOver = false;
    this.legContact.fill(0);
    world.on('begin-contact', (contact: Contact) => {
      const a = contact.getFixtureA().getBody();
      const b = contact.getFixtureB().getBody();
      if (a === this.lander || b === this.lander) this.gameOver = true;
      for (let k = 0; k < 2; k++) if (a === this.legs[k] || b === this.legs[k]) this.legContact[k] = 1;
    });
    world.on('end-contact', (contact: Contact) => {
      const a = contact.getFixtureA().getBody();
      const b = contact.getFixtureB().getBody();
      for (let k = 0; k < 2; k++) if (a === this.legs[k] || b === this.legs[k]) this.legContact[k] = 0;
    });
    const moon = world.createBody();
    moon.createFixture({ shape: new Edge({ x: 0, y: 0 }, { x: W, y: 0 }) });
    for (let k = 0; k < CHUNKS - 1; k++) {
      const p1 = { x: scene.chunkX[k], y: scene.smoothY[k] };
      const p2 = { x: scene.chunkX[k + 1], y: scene.smoothY[k + 1] };
      moon.createFixture({ shape: new Edge(p1, p2), density: 0, friction: 0.1 });
    }
    const initialY = VIEWPORT_H / SCALE;
    const initialX = VIEWPORT_W / SCALE / 2;
    const lander = world.createDynamicBody({ position: { x: initialX, y: initialY }, angle: 0 });
    lander.createFixture({
      shape: new Polygon(LANDER_POLY.map(([x, y]) => ({ x: x / SCALE, y: y / SCALE }))),
      density: 5.0, friction: 0.1, filterCategoryBits: 0x0010, filterMaskBits: 0x001, restitution: 0.0,
    });
    this.lander = lander;
    lander.applyForceToCenter({ x: scene.forceX, y: scene.forceY }, true);
    this.legs = [];
    for (const i of [-1, +1]) {
      const leg = world.createDynamicBody({ position: { x: initialX - (i * LEG_AWAY) / SCALE, y: initialY }, angle: i * 0.05 });
      leg.createFixture({
        shape: new Box(LEG_W / SCALE, LEG_H / SCALE),
        density: 1.0, restitution: 0.0, filterCategoryBits: 0x0020, filterMaskBits: 0x001,
      });
      world.createJoint(new RevoluteJoint({
        bodyA: lander, bodyB: leg,
        localAnchorA: { x: 0, y: 0 },
        localAnchorB: { x: (i * LEG_AWAY) / SCALE, y: LEG_DOWN / SCALE },
        // pybox2d's revoluteJointDef sets referenceAngle = bodyB.angle - bodyA.angle when not given.
        referenceAngle: leg.getAngle() - lander.getAngle(),
        enableMotor: true, enableLimit: true,
        maxMotorTorque: LEG_SPRING_TORQUE,
        motorSpeed: +0.3 * i,
        lowerAngle: i === -1 ? +0.9 - 0.5 : -0.9,
        upperAngle: i === -1 ? +0.9 : -0.9 + 0.5,
      }));
      this.legs.push(leg);
    }
    this.read();
  }

  read(): void {
    const p = this.lander.getPosition();
    const v = this.lander.getLinearVelocity();
    const b = this.body;
    b[X] = p.x;
    b[Y] = p.y;
    b[ANGLE] = this.lander.getAngle();
    b[VX] = v.x;
    b[VY] = v.y;
    b[OMEGA] = this.lander.getAngularVelocity();
  }

  applyImpulse(ix: number, iy: number, px: number, py: number): void {
    impulse.x = ix;
    impulse.y = iy;
    point.x = px;
    point.y = py;
    this.lander.applyLinearImpulse(impulse, point, true);
  }

  step(): void {
    this.world.step(1.0 / FPS, VELOCITY_ITERATIONS, POSITION_ITERATIONS);
  }

  awake(): boolean {
    return this.lander.isAwake();
  }

  dispose(): void {}
}
