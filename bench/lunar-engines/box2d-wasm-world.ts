/**
 * LunarLander's world on Box2D 2.4.1 in float32 (box2d-wasm), built as pybox2d builds
 * Gymnasium's: the same bodies, fixtures, filters and joints in the same order, one new b2World
 * per reset. The definitions (b2BodyDef, b2FixtureDef, shapes, b2Vec2) are made once per process
 * and refilled: Box2D copies them, so nothing is allocated per step.
 */
import { b2 } from './box2d-wasm.ts';
import { ANGLE, OMEGA, VX, VY, X, Y, type LanderScene, type LanderWorld } from '../../tasks/lunar-lander-common/engine.ts';
import { CHUNKS, FPS, GRAVITY, LANDER_POLY, LEG_AWAY, LEG_DOWN, LEG_H, LEG_SPRING_TORQUE, LEG_W, POSITION_ITERATIONS, SCALE, VELOCITY_ITERATIONS, VIEWPORT_H, VIEWPORT_W, W } from '../../tasks/lunar-lander-common/constants.ts';

/** The glue's raw bindings: a contact's fixtures and a fixture's body as pointers, without wrapper objects. */
interface RawBindings {
  _emscripten_bind_b2Contact_GetFixtureA_0(contact: number): number;
  _emscripten_bind_b2Contact_GetFixtureB_0(contact: number): number;
  _emscripten_bind_b2Fixture_GetBody_0(fixture: number): number;
}
const raw = b2 as unknown as RawBindings;

// Definitions shared by every world (Box2D copies them when it creates a body, fixture or joint).
const vecA = new b2.b2Vec2(0, 0);
const vecB = new b2.b2Vec2(0, 0);
const gravity = new b2.b2Vec2(0, GRAVITY);
const bodyDef = new b2.b2BodyDef();
const fixtureDef = new b2.b2FixtureDef();
const edge = new b2.b2EdgeShape();
const landerShape = new b2.b2PolygonShape();
const legShape = new b2.b2PolygonShape();
const jointDef = new b2.b2RevoluteJointDef();
{
  const [vertices, free] = b2.pointsToVec2Array(LANDER_POLY.map(([x, y]) => ({ x: x / SCALE, y: y / SCALE })));
  landerShape.Set(vertices, LANDER_POLY.length);
  free();
  legShape.SetAsBox(LEG_W / SCALE, LEG_H / SCALE);
}

/** b2FixtureDef's defaults (pybox2d's fixtureDef keywords set only what they name). */
function fixture(shape: Box2D.b2Shape, density: number, friction: number, category: number, mask: number): Box2D.b2FixtureDef {
  fixtureDef.set_shape(shape);
  fixtureDef.set_density(density);
  fixtureDef.set_friction(friction);
  fixtureDef.set_restitution(0);
  fixtureDef.set_isSensor(false);
  const filter = fixtureDef.get_filter();
  filter.set_categoryBits(category);
  filter.set_maskBits(mask);
  filter.set_groupIndex(0);
  return fixtureDef;
}

function dynamicBody(world: Box2D.b2World, x: number, y: number, angle: number): Box2D.b2Body {
  bodyDef.set_type(b2.b2_dynamicBody);
  vecA.Set(x, y);
  bodyDef.set_position(vecA);
  bodyDef.set_angle(angle);
  return world.CreateBody(bodyDef);
}

export class Box2DLanderWorld implements LanderWorld {
  readonly body = new Float64Array(6);
  readonly legContact = new Uint8Array(2);
  gameOver = false;
  private world: Box2D.b2World | null = null;
  private lander!: Box2D.b2Body;
  private landerPtr = 0;
  private legPtrs = new Int32Array(2);
  private position!: Box2D.b2Vec2;
  private velocity!: Box2D.b2Vec2;
  private readonly listener = new b2.JSContactListener();
  private readonly impulse = new b2.b2Vec2(0, 0);
  private readonly point = new b2.b2Vec2(0, 0);

  constructor() {
    // Gymnasium's ContactDetector, on pointers (a contact's bodies are compared with ours).
    const bodies = (contact: number, k: 0 | 1): number =>
      raw._emscripten_bind_b2Fixture_GetBody_0(k === 0 ? raw._emscripten_bind_b2Contact_GetFixtureA_0(contact) : raw._emscripten_bind_b2Contact_GetFixtureB_0(contact));
    this.listener.BeginContact = (contact: number | Box2D.b2Contact): void => {
      const a = bodies(contact as number, 0);
      const b = bodies(contact as number, 1);
      if (a === this.landerPtr || b === this.landerPtr) this.gameOver = true;
      for (let k = 0; k < 2; k++) if (a === this.legPtrs[k] || b === this.legPtrs[k]) this.legContact[k] = 1;
    };
    this.listener.EndContact = (contact: number | Box2D.b2Contact): void => {
      const a = bodies(contact as number, 0);
      const b = bodies(contact as number, 1);
      for (let k = 0; k < 2; k++) if (a === this.legPtrs[k] || b === this.legPtrs[k]) this.legContact[k] = 0;
    };
    this.listener.PreSolve = (): void => {};
    this.listener.PostSolve = (): void => {};
  }

  build(scene: LanderScene): void {
    this.dispose();
    gravity.Set(0, GRAVITY);
    const world = new b2.b2World(gravity);
    this.world = world;
    world.SetContactListener(this.listener);
    this.gameOver = false;
    this.legContact.fill(0);

    // The moon: a static body at the origin, the bottom edge with b2FixtureDef's defaults, then the chunks.
    bodyDef.set_type(b2.b2_staticBody);
    vecA.Set(0, 0);
    bodyDef.set_position(vecA);
    bodyDef.set_angle(0);
    const moon = world.CreateBody(bodyDef);
    vecA.Set(0, 0);
    vecB.Set(W, 0);
    edge.SetTwoSided(vecA, vecB);
    moon.CreateFixture(fixture(edge, 0, 0.2, 0x0001, 0xffff));
    for (let k = 0; k < CHUNKS - 1; k++) {
      vecA.Set(scene.chunkX[k], scene.smoothY[k]);
      vecB.Set(scene.chunkX[k + 1], scene.smoothY[k + 1]);
      edge.SetTwoSided(vecA, vecB);
      moon.CreateFixture(fixture(edge, 0, 0.1, 0x0001, 0xffff));
    }

    const initialY = VIEWPORT_H / SCALE;
    const initialX = VIEWPORT_W / SCALE / 2;
    const lander = dynamicBody(world, initialX, initialY, 0);
    lander.CreateFixture(fixture(landerShape, 5.0, 0.1, 0x0010, 0x001));
    this.lander = lander;
    this.landerPtr = b2.getPointer(lander);
    vecA.Set(scene.forceX, scene.forceY);
    lander.ApplyForceToCenter(vecA, true);

    for (const [k, i] of [[0, -1], [1, +1]] as const) {
      const leg = dynamicBody(world, initialX - (i * LEG_AWAY) / SCALE, initialY, i * 0.05);
      leg.CreateFixture(fixture(legShape, 1.0, 0.2, 0x0020, 0x001));
      jointDef.set_bodyA(lander);
      jointDef.set_bodyB(leg);
      vecA.Set(0, 0);
      jointDef.set_localAnchorA(vecA);
      vecB.Set((i * LEG_AWAY) / SCALE, LEG_DOWN / SCALE);
      jointDef.set_localAnchorB(vecB);
      // pybox2d's revoluteJointDef sets referenceAngle = bodyB.angle - bodyA.angle when not given.
      jointDef.set_referenceAngle(leg.GetAngle() - lander.GetAngle());
      jointDef.set_enableMotor(true);
      jointDef.set_enableLimit(true);
      jointDef.set_maxMotorTorque(LEG_SPRING_TORQUE);
      jointDef.set_motorSpeed(+0.3 * i);
      jointDef.set_lowerAngle(i === -1 ? +0.9 - 0.5 : -0.9);
      jointDef.set_upperAngle(i === -1 ? +0.9 : -0.9 + 0.5);
      jointDef.set_collideConnected(false);
      world.CreateJoint(jointDef);
      this.legPtrs[k] = b2.getPointer(leg);
    }
    this.position = lander.GetPosition();
    this.velocity = lander.GetLinearVelocity();
    this.read();
  }

  read(): void {
    const b = this.body;
    b[X] = this.position.get_x();
    b[Y] = this.position.get_y();
    b[ANGLE] = this.lander.GetAngle();
    b[VX] = this.velocity.get_x();
    b[VY] = this.velocity.get_y();
    b[OMEGA] = this.lander.GetAngularVelocity();
  }

  applyImpulse(ix: number, iy: number, px: number, py: number): void {
    this.impulse.Set(ix, iy);
    this.point.Set(px, py);
    this.lander.ApplyLinearImpulse(this.impulse, this.point, true);
  }

  step(): void {
    (this.world as Box2D.b2World).Step(1.0 / FPS, VELOCITY_ITERATIONS, POSITION_ITERATIONS);
  }

  awake(): boolean {
    return this.lander.IsAwake();
  }

  dispose(): void {
    if (this.world !== null) b2.destroy(this.world);
    this.world = null;
  }
}
